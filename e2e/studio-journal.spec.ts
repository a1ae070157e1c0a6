import { readFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import ICAL from 'ical.js';
import type { Analysis, MetricId, RgbaImage, ZoneId } from '../packages/skin/src/contract.ts';
import { METRIC_IDS, ZONE_IDS } from '../packages/skin/src/contract.ts';
import { compareAnalyses, noiseFloor } from '../packages/skin/src/trend.ts';
import { decodeImage, encodeJpeg } from '../packages/skin/test/images.ts';
import { type JournalEntry, type JournalTemplate, seedJournal } from '../bench/lib/journal-seed.ts';
import type { ChangeReading } from '../packages/shared/src/studio/reading.ts';
import {
  latestChanges,
  notableChanges,
  scansThisMonth,
  smallMultiples,
  weeksInARow,
} from '../apps/web/app/features/studio/journal/journal-summary.ts';
import { journalTemplate } from '../bench/lib/journal-records.ts';
import { STORY_NOW, journalStory } from './helpers/journal-story';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, fill as fillStrings, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  recordRequests,
  startFromHomePage,
} from './helpers/studio';

// The journal (docs/product/web-app.md#journal): three weekly scans on a moving clock build a timeline, trends per zone
// and metric judged against the noise floor, a comparison of any two scans, the next scan's day and a
// weekly reminder as a calendar file in the visitor's language and time zone; a scan can be deleted.
// Both languages, a phone and a desktop; no request to another host; no axe violation.

const DAY = 86_400_000;
const BRAND = 'Skanova';

/** i18next's interpolation and plural forms, for the strings the tests read. */
function fill(template: string, values: Record<string, string | number> = {}): string {
  return fillStrings(template, { brand: BRAND, ...values });
}
function plural(lang: Lang, group: Record<string, string>, key: string, count: number, values = {}): string {
  const one = lang === 'fr' ? count < 2 : count === 1;
  return fill(group[`${key}_${one ? 'one' : 'other'}`]!, { count, ...values });
}

/** "+1.5", "−3.0" as the journal writes a change. */
function delta(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' })
    .format(value)
    .replace('-', '\u2212');
}

/** A change in the journal's small multiples and scan cards: "more redness, worse", "no real change". */
function changeWordsIn(lang: Lang, reading: ChangeReading): string {
  const t = strings(lang, 'studio');
  const [difference] = reading.differences;
  const verdict = difference
    ? `${t.reading.change.notComparable} (${t.journal.unsure[difference]})`
    : t.reading.change[reading.kind];
  const { change } = reading;
  return reading.kind !== 'noRealChange' && change.direction !== 'stable'
    ? `${t.reading.moved[change.metric][change.direction]}, ${verdict}`
    : verdict;
}

/** A text as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The journal's scan cards (each with its title), not the lists of changes inside them. */
function scanCards(page: Page, title: string) {
  return page
    .getByRole('region', { name: title })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
}

// ---------- Photos: a test selfie and variants that move the scores ----------

/** Deterministic edits of the test selfie: a flush over the cheeks and nose, then a softer skin. */
function variant(kind: 'original' | 'flushed' | 'softened'): Buffer {
  const bytes = readFileSync(FACE_PHOTO);
  if (kind === 'original') return bytes;
  const image = decodeImage(bytes, FACE_PHOTO);
  const data = new Uint8ClampedArray(image.data);
  const { width, height } = image;
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = (y * width + x) * 4;
      if (kind === 'flushed') {
        // The face's middle (cheeks, nose, upper lip) of this photo: redder.
        if (y > height * 0.45 && y < height * 0.75 && x > width * 0.25 && x < width * 0.75) {
          data[i] = image.data[i]! + 12;
          data[i + 1] = image.data[i + 1]! - 4;
        }
      } else {
        // Half of a 3×3 blur everywhere: finer texture, still sharp enough for the gate.
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) sum += image.data[((y + dy) * width + x + dx) * 4 + c]!;
          data[i + c] = image.data[i + c]! * 0.5 + (sum / 9) * 0.5;
        }
      }
    }
  const edited: RgbaImage = { width, height, data };
  return Buffer.from(encodeJpeg(edited, 92));
}

// ---------- What the device keeps ----------

interface Saved {
  id: string;
  takenAt: string;
  analysis: Analysis;
  photo: boolean;
}

/** The saved scans as the app wrote them (IndexedDB), oldest first. */
async function savedScans(page: Page): Promise<Saved[]> {
  const scans = await page.evaluate(
    () =>
      new Promise<{ id: string; takenAt: string; analysis: unknown; photo: boolean }[]>((resolve, reject) => {
        const open = indexedDB.open('skanova-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('scans').objectStore('scans').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            open.result.close();
            resolve(
              (all.result as { id: string; takenAt: string; analysis: unknown; photo?: Blob }[]).map((scan) => ({
                id: scan.id,
                takenAt: scan.takenAt,
                analysis: scan.analysis,
                photo: scan.photo instanceof Blob,
              })),
            );
          };
        };
      }),
  );
  return (scans as Saved[]).sort((a, b) => a.takenAt.localeCompare(b.takenAt));
}

/** A day and time as the browser writes them in the page's language and time zone. */
function inPage(page: Page, iso: string, options: Intl.DateTimeFormatOptions, lang: Lang): Promise<string> {
  return page.evaluate(
    ([moment, format, language]) => new Intl.DateTimeFormat(language, format).format(new Date(moment)),
    [iso, options, lang] as const,
  );
}

/** A due day as the journal writes it: "jeudi 3 décembre", with the year when it is not today's. */
function dueInPage(page: Page, dueIso: string, todayIso: string, lang: Lang): Promise<string> {
  return page.evaluate(
    ([due, today, language]) => {
      const year = (iso: string) => new Date(iso).getFullYear();
      return new Intl.DateTimeFormat(language, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        ...(year(due) === year(today) ? {} : { year: 'numeric' }),
      }).format(new Date(due));
    },
    [dueIso, todayIso, lang] as const,
  );
}

/** The calendar file the journal downloads, read back with ical.js. */
async function downloadReminder(page: Page, button: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const text = readFileSync((await download.path())!, 'utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  const iterator = event.iterator();
  const occurrences: Date[] = [];
  for (let index = 0; index < 30; index++) occurrences.push(iterator.next()!.toJSDate());
  return { name: download.suggestedFilename(), text, vevent, event, occurrences };
}

/** An instant's weekday, date and time on a clock in `timeZone` (in English, for comparisons). */
function wallClock(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

/** The reminder repeats every week at 09:00 on the due day's weekday, in the visitor's zone, through daylight-saving changes. */
function expectWeeklyReminder(
  reminder: Awaited<ReturnType<typeof downloadReminder>>,
  lang: Lang,
  timeZone: string,
  firstDay: Date,
) {
  const t = strings(lang, 'studio');
  expect(reminder.name).toBe(`${t.journal.reminder.fileName}.ics`);
  expect(reminder.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  for (const line of reminder.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  const rule = reminder.vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
  expect(rule.freq).toBe('WEEKLY');
  expect(reminder.event.startDate.zone?.tzid).toBe(timeZone);
  expect(reminder.event.summary).toBe(fill(t.journal.reminder.eventTitle));
  expect(reminder.vevent.getFirstProperty('summary')?.getParameter('language')).toBe(lang);
  expect(reminder.event.uid).toBeTruthy();
  expect(reminder.vevent.getFirstPropertyValue('dtstamp')).toBeTruthy();
  const first = wallClock(firstDay, timeZone).split(', ')[0];
  expect(wallClock(reminder.occurrences[0]!, timeZone)).toBe(`${first}, 09:00`);
  const weekday = first!.split(' ')[0];
  for (const occurrence of reminder.occurrences) expect(wallClock(occurrence, timeZone)).toMatch(`${weekday} `);
  for (const occurrence of reminder.occurrences) expect(wallClock(occurrence, timeZone)).toMatch(/, 09:00$/);
}

// ---------- The stories ----------

const STORIES = [
  { lang: 'fr', size: { width: 375, height: 812 }, device: 'phone', timeZone: 'Europe/Paris', keepPhoto: false },
  { lang: 'en', size: { width: 1280, height: 900 }, device: 'desktop', timeZone: 'America/New_York', keepPhoto: true },
] as const;

for (const story of STORIES) {
  const { lang, timeZone } = story;
  const t = strings(lang, 'studio');
  const j = t.journal;

  test(`${lang} ${story.device}: three weekly scans → the journal's timeline, trends, comparison, reminder and deletion`, async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    const context = await browser.newContext({
      viewport: story.size,
      locale: lang === 'fr' ? 'fr-FR' : 'en-US',
      timezoneId: timeZone,
    });
    await answerCookieBanner(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    const health = await watchPageHealth(page);

    // Three weeks ago at 15:00 UTC (the same day in Paris and New York), then a week later twice.
    const today = new Date();
    const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 15) - 21 * DAY;
    const weeks = [start, start + 7 * DAY, start + 14 * DAY + 2 * 3_600_000];
    await page.clock.setFixedTime(weeks[0]!);
    await startFromHomePage(page, lang);

    // No scan yet: the journal says how it starts.
    const nav = page.getByRole('navigation', { name: t.layout.nav.label });
    await nav.getByRole('link', { name: t.layout.nav.journal }).click();
    await expect(page.getByRole('heading', { level: 1, name: j.title })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: j.empty.title })).toBeVisible();
    await expectNoAxeViolations(page, `empty journal (${lang})`);

    const photos = [variant('original'), variant('flushed'), variant('softened')];
    for (const [index, week] of weeks.entries()) {
      await page.clock.setFixedTime(week);
      if (index === 0) await page.getByRole('link', { name: j.empty.firstScan }).click();
      else await page.getByRole('link', { name: j.next.newScan }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.scan.title })).toBeVisible();
      await page
        .getByLabel(t.scan.uploadPhoto)
        .setInputFiles({ name: `week-${index + 1}.jpg`, mimeType: 'image/jpeg', buffer: photos[index]! });
      await expect(page.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
        timeout: ANALYSIS_TIMEOUT,
      });
      if (story.keepPhoto) await page.getByRole('checkbox', { name: t.result.keepPhoto }).check();
      await page.getByRole('button', { name: t.result.save }).click();
      await expect(page.getByText(t.result.saved)).toBeVisible();
      await nav.getByRole('link', { name: t.layout.nav.journal }).click();
      await expect(page.getByRole('heading', { level: 1, name: j.title })).toBeVisible();

      if (index === 0) {
        // One scan: on the timeline, no trend yet, the next one due in a week.
        await expect(scanCards(page, j.timeline.title)).toHaveCount(1);
        await expect(page.getByText(j.trends.oneScan)).toBeVisible();
        await expect(page.getByText(j.summary.first)).toBeVisible();
        const due = await dueInPage(page, new Date(week + 7 * DAY).toISOString(), new Date(week).toISOString(), lang);
        await expect(page.getByText(plural(lang, j.next, 'upcoming', 7, { date: due }))).toBeVisible();
        await expectNoAxeViolations(page, `journal with one scan (${lang})`);
      }
    }

    const saved = await savedScans(page);
    expect(saved.map((scan) => scan.takenAt)).toEqual(weeks.map((week) => new Date(week).toISOString()));
    expect(saved.map((scan) => scan.photo)).toEqual(weeks.map(() => story.keepPhoto));
    const [first, second, third] = saved as [Saved, Saved, Saved];
    // The variants really move the scores: changes beyond the floor between the weeks.
    const flushed = compareAnalyses(first.analysis, second.analysis).filter((change) => change.verdict !== 'stable');
    expect(flushed.length).toBeGreaterThan(0);

    // The timeline: newest first, each with its day, source and a link to the saved result.
    const timeline = page.getByRole('region', { name: j.timeline.title });
    await expect(scanCards(page, j.timeline.title)).toHaveCount(3);
    const heads = timeline.getByRole('heading', { level: 3 });
    for (const [index, scan] of [third, second, first].entries()) {
      const date = await inPage(page, scan.takenAt, { dateStyle: 'long', timeStyle: 'short' }, lang);
      await expect(heads.nth(index)).toHaveText(fill(t.home.scanOf, { date }));
      await expect(heads.nth(index).getByRole('link')).toHaveAttribute('href', `/studio/result?id=${scan.id}`);
    }
    await expect(scanCards(page, j.timeline.title).first()).toContainText(t.home.source.upload);

    // The next scan: a week after the latest.
    const dueIso = new Date(weeks[2]! + 7 * DAY).toISOString();
    const dueDay = await dueInPage(page, dueIso, new Date(weeks[2]!).toISOString(), lang);
    await expect(page.getByText(plural(lang, j.next, 'upcoming', 7, { date: dueDay }))).toBeVisible();

    // What really changed: the newest scan against the last one taken alike (shared reading.ts).
    const since = compareAnalyses(second.analysis, third.analysis);
    const summaryCard = page.getByRole('region', { name: j.summary.title });
    const latest = latestChanges(saved)!;
    if (latest.status === 'notComparable')
      await expect(summaryCard).toContainText(j.summary.notComparable.split('(')[0]!);
    else if (latest.status === 'compared' && latest.real.length === 0)
      await expect(summaryCard).toContainText(j.summary.noRealChange);
    else if (latest.status === 'compared') {
      await expect(summaryCard.getByRole('listitem')).toHaveCount(Math.min(4, latest.real.length));
      await expect(summaryCard).toContainText(plural(lang, j.since, 'rest', latest.total - latest.real.length));
    }
    await expect(summaryCard.getByText(t.reading.why.measured.split('{{')[0]!)).toBeHidden();

    // Small multiples: one small trend of the flushed metric per zone, each a figure named in words.
    const trends = page.getByRole('region', { name: j.trends.title });
    const { metric } = flushed[0]!;
    await trends.getByRole('combobox', { name: j.trends.metric }).selectOption({ label: t.metrics[metric].title });
    await expect(page).toHaveURL(new RegExp(`metric=${metric}`));
    const multiples = smallMultiples(saved, { by: 'zone', metric });
    await expect(trends.getByRole('figure')).toHaveCount(multiples.length);
    for (const multiple of multiples) {
      const place = multiple.series.place;
      const name = place === 'overall' ? j.wholeFace : t.zoneTitles[place];
      await expect(trends.getByRole('figure', { name })).toContainText(changeWordsIn(lang, multiple.sinceFirst!));
    }
    await expectNoAxeViolations(page, `journal with three scans (${lang})`);

    // The weekly reminder: a calendar file in the visitor's language and time zone, from the due day.
    const reminder = await downloadReminder(page, j.reminder.add);
    expectWeeklyReminder(reminder, lang, timeZone, new Date(weeks[2]! + 7 * DAY));
    await expect(page.getByRole('status').filter({ hasText: j.reminder.done })).toBeVisible();

    // Comparing the two latest scans, then the first with the latest.
    await page.goto(`/studio/compare?a=${second.id}&b=${third.id}`);
    await expect(page.getByRole('heading', { level: 1, name: t.compare.title })).toBeVisible();
    const photoName = story.keepPhoto ? t.compare.photoAlt : t.compare.previewAlt;
    for (const scan of [second, third]) {
      const date = await inPage(page, scan.takenAt, { dateStyle: 'long', timeStyle: 'short' }, lang);
      await expect(page.getByRole('img', { name: fill(photoName, { date }) })).toBeVisible();
    }
    await expect(
      page.getByRole('heading', { level: 2, name: story.keepPhoto ? t.compare.photos : t.compare.previews }),
    ).toBeVisible();
    /** The comparison's count of verdicts ("unsure" beside the others when the photos were not taken alike). */
    const counts = (changes: typeof since) => {
      const count = (verdict: string) => changes.filter((change) => change.verdict === verdict).length;
      const values = {
        total: changes.length,
        better: count('better'),
        worse: count('worse'),
        stable: count('stable'),
        unsure: count('unsure'),
      };
      return fill(values.unsure > 0 ? t.compare.countsUnsure : t.compare.counts, values);
    };
    await expect(page.getByText(counts(since))).toBeVisible();
    const wholeFace = page.getByRole('region', { name: j.wholeFace });
    await expect(wholeFace.getByRole('row')).toHaveCount(1 + METRIC_IDS.length);
    await expectNoAxeViolations(page, `comparison (${lang})`);
    const firstDate = await inPage(page, first.takenAt, { dateStyle: 'medium', timeStyle: 'short' }, lang);
    await page.getByLabel(t.compare.first).selectOption({ label: `${firstDate} · ${t.home.source.upload}` });
    await expect(page).toHaveURL(new RegExp(`/studio/compare\\?a=${first.id}&b=${third.id}$`));
    await expect(page.getByText(counts(compareAnalyses(first.analysis, third.analysis)))).toBeVisible();
    await page.getByRole('link', { name: t.compare.backToJournal }).first().click();

    // The due day comes, then passes.
    await page.clock.setFixedTime(weeks[2]! + 7 * DAY - 3 * 3_600_000);
    await page.reload();
    await expect(page.getByText(j.next.today)).toBeVisible();
    await page.clock.setFixedTime(weeks[2]! + 9 * DAY);
    await page.reload();
    const late = await dueInPage(page, dueIso, new Date(weeks[2]! + 9 * DAY).toISOString(), lang);
    await expect(page.getByText(plural(lang, j.next, 'overdue', 2, { date: late }))).toBeVisible();

    // Deleting the middle scan, after confirming.
    const cards = scanCards(page, j.timeline.title);
    await cards
      .nth(1)
      .getByRole('button', { name: new RegExp(`^${j.timeline.delete}`) })
      .click();
    await page
      .getByRole('dialog', { name: j.timeline.deleteTitle })
      .getByRole('button', { name: j.timeline.deleteConfirmButton })
      .click();
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole('status').filter({ hasText: j.timeline.deleted.split('{{')[0] })).toBeVisible();
    expect((await savedScans(page)).map((scan) => scan.id)).toEqual([first.id, third.id]);

    expectHealthy(health, `the journal (${lang}, ${story.device})`);
    expectPrivate(requests);
    await context.close();
  });
}

// ---------- A journal with chosen scores: the floor decides, to the tenth ----------

/** A small analysis with every zone and metric at 50 but the face-wide `overall` given. */
function analysisWith(overall: Partial<Record<MetricId, number>>): Analysis {
  return {
    version: 'skin-1',
    width: 576,
    height: 576,
    pxPerMm: 4,
    overall: { redness: 20, evenness: 80, shine: 10, texture: 30, darkCircles: 25, ...overall },
    zones: ZONE_IDS.map((zone: ZoneId) => ({
      zone,
      outline: [],
      pixels: 1000,
      metrics: Object.fromEntries(
        METRIC_IDS.filter((metric) => noiseFloor(metric, zone) !== undefined).map((metric) => [metric, 50]),
      ),
    })),
  };
}

const SEEDED = [
  { lang: 'fr', size: { width: 1280, height: 900 }, device: 'desktop', timeZone: 'America/Toronto' },
  { lang: 'en', size: { width: 375, height: 812 }, device: 'phone', timeZone: 'Australia/Sydney' },
] as const;

for (const story of SEEDED) {
  const { lang, timeZone } = story;
  const t = strings(lang, 'studio');
  const j = t.journal;

  test(`${lang} ${story.device}: a change just under the floor is no real change, one just over it is`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: story.size,
      locale: lang === 'fr' ? 'fr-FR' : 'en-AU',
      timezoneId: timeZone,
    });
    await answerCookieBanner(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    const health = await watchPageHealth(page);
    const now = Date.UTC(2027, 2, 10, 1);
    await page.clock.setFixedTime(now);
    // The app's home creates its database; the scans are then written as the app writes them.
    await page.goto(`/studio?lang=${lang}`);
    await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
    const photo = readFileSync(FACE_PHOTO).toString('base64');
    const template: JournalTemplate = {
      analysis: analysisWith({}),
      gates: [],
      landmarks: [],
      thumbnailFrame: { x: 0, y: 0, width: 576, height: 576 },
      thumbnail: photo,
      photo,
    };
    // Face-wide texture, against the floor the app ships (one decimal; 1.4 when this test was written):
    // 30 → a tenth under the floor (no real change) → a tenth over it (worse: more texture).
    const floor = noiseFloor('texture', 'overall')!;
    const under = Math.round((floor - 0.1) * 10) / 10;
    const over = Math.round((floor + 0.1) * 10) / 10;
    const textures = [30, 30 + under, 30 + under + over];
    const entries: JournalEntry[] = textures.map((texture, index) => {
      const analysis = analysisWith({ texture });
      return {
        id: `seeded-${index}`,
        takenAt: new Date(now - (15 - 7 * index) * DAY).toISOString(),
        source: 'camera',
        keepPhoto: true,
        overall: analysis.overall,
        zones: Object.fromEntries(analysis.zones.map((zone) => [zone.zone, zone.metrics])),
      };
    });
    await seedJournal(page, template, entries);
    await page.goto('/studio/journal?by=metric&zone=overall');

    // The whole face's small multiples: the texture moved beyond its floor since the first scan.
    const trends = page.getByRole('region', { name: j.trends.title });
    const [, t1, t2] = textures.map(Math.round) as [number, number, number];
    const texture = trends.getByRole('figure', { name: t.metrics.texture.title });
    // Its words say what they measure from: the first scan (same year: no year).
    const firstDay = await inPage(page, entries[0]!.takenAt, { day: 'numeric', month: 'short' }, lang);
    await expect(texture).toContainText(
      `${t2} ${fill(j.multiples.since, { date: firstDay })} ${t.reading.moved.texture.up}, ${t.reading.change.worse}`,
    );
    await expect(trends.getByRole('figure', { name: t.metrics.redness.title })).toContainText(
      t.reading.change.noRealChange,
    );
    // Since the previous scan, the only real change is the texture's; a tenth under the floor is no real change.
    const summaryCard = page.getByRole('region', { name: j.summary.title });
    await expect(summaryCard.getByRole('listitem')).toHaveCount(1);
    await expect(summaryCard.getByRole('listitem')).toContainText(
      `${t.metrics.texture.title} · ${j.wholeFace} ${t1} → ${t2} (${delta(over, lang)}) ${t.reading.moved.texture.up} ${t.reading.change.worse}`,
    );
    const cards = scanCards(page, j.timeline.title);
    const day = (index: number) =>
      inPage(page, entries[index]!.takenAt, { day: 'numeric', month: 'short', year: 'numeric' }, lang);
    await expect(cards.nth(1)).toContainText(fill(j.timeline.noRealChange, { date: await day(0) }));
    await expect(cards.nth(0)).toContainText(fill(j.timeline.since, { date: await day(1) }));
    await expect(cards.nth(0)).toContainText(
      fill(j.timeline.change, {
        what: `${t.metrics.texture.title} · ${j.wholeFace}`,
        words: `${t.reading.moved.texture.up}, ${t.reading.change.worse}`,
      }),
    );
    await expect(cards.nth(2)).toContainText(j.timeline.first);
    await expectNoAxeViolations(page, `seeded journal (${lang})`);

    // The reminder in a southern-hemisphere or North American zone, across its daylight-saving change.
    const reminder = await downloadReminder(page, j.reminder.add);
    expectWeeklyReminder(reminder, lang, timeZone, new Date(Date.parse(entries[2]!.takenAt) + 7 * DAY));

    // A comparison asked for a scan that is not on the device says so; the same scan twice asks for another.
    await page.goto('/studio/compare?a=gone&b=seeded-2');
    await expect(page.getByRole('alert')).toHaveText(t.compare.missing);
    await expect(page.getByRole('heading', { level: 2, name: t.compare.photos })).toBeVisible();
    await page.goto('/studio/compare?a=seeded-2&b=seeded-2');
    await expect(page.getByText(t.compare.same)).toBeVisible();
    await page.goto('/studio/compare?a=seeded-0&b=seeded-2');
    const wholeFace = page.getByRole('region', { name: j.wholeFace });
    await expect(wholeFace.getByRole('row', { name: new RegExp(t.metrics.texture.title) })).toContainText(
      `${delta(under + over, lang)} ${t.reading.moved.texture.up} ${t.reading.change.worse}`,
    );
    await expectNoAxeViolations(page, `seeded comparison (${lang})`);

    expectHealthy(health, `the seeded journal (${lang})`);
    expectPrivate(requests);
    await context.close();
  });
}

// ---------- A journal worth opening: summary, small multiples, before and after, scan cards ----------

const OPENING = [
  { lang: 'fr', size: { width: 375, height: 812 }, device: 'phone', timeZone: 'Europe/Paris' },
  { lang: 'fr', size: { width: 1280, height: 800 }, device: 'desktop', timeZone: 'Europe/Paris' },
  { lang: 'en', size: { width: 375, height: 812 }, device: 'phone', timeZone: 'America/Toronto' },
  { lang: 'en', size: { width: 1280, height: 800 }, device: 'desktop', timeZone: 'America/Toronto' },
] as const;

test.describe('a journal worth opening', () => {
  let template: JournalTemplate;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    template = await journalTemplate();
  });

  for (const story of OPENING) {
    const { lang, timeZone } = story;
    const t = strings(lang, 'studio');
    const j = t.journal;

    test(`${lang} ${story.size.width}: the summary, small multiples, before and after, and a confirmed deletion`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ viewport: story.size, locale: lang, timezoneId: timeZone });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
      await page.clock.setFixedTime(STORY_NOW);
      await page.goto(`/studio?lang=${lang}`);
      await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
      const entries = journalStory(template);
      await seedJournal(page, template, entries);
      const saved = await savedScans(page);
      await page.goto('/studio/journal');
      await expect(page.getByRole('heading', { level: 1, name: j.title })).toBeVisible();

      // The summary first: what the seeds say, computed from them on the visitor's clock.
      const summary = page.getByRole('region', { name: j.summary.title });
      const now = new Date(STORY_NOW);
      const stat = (label: string) =>
        summary.locator('.journal-stat').filter({ hasText: label }).getByRole('definition');
      await expect(stat(j.summary.thisMonth)).toHaveText(
        plural(lang, j.summary, 'scans', scansThisMonth(saved, now, timeZone)),
      );
      const weeks = weeksInARow(saved, now, timeZone);
      expect(weeks, 'the seeds: four weeks in a row after a missing week').toBe(4);
      await expect(stat(j.summary.weeks)).toHaveText(plural(lang, j.summary, 'weeksCount', weeks));
      const latest = latestChanges(saved)!;
      expect(latest.status).toBe('compared');
      if (latest.status !== 'compared') return;
      // Skips the scan under the lamp: compared with the last scan taken alike.
      expect(latest.previous.id).toBe('story-3');
      const day = (
        iso: string,
        options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' },
      ) => inPage(page, iso, options, lang);
      await expect(summary).toContainText(
        fill(j.summary.lead, {
          previous: await day(latest.previous.takenAt),
          latest: await day(latest.latest.takenAt),
        }),
      );
      expect(latest.real.length).toBeGreaterThan(0);
      const listed = summary.getByRole('listitem');
      await expect(listed).toHaveCount(Math.min(4, latest.real.length));
      for (const [index, reading] of latest.real.slice(0, 4).entries()) {
        const place = reading.change.place === 'overall' ? j.wholeFace : t.zoneTitles[reading.change.place];
        await expect(listed.nth(index)).toContainText(`${t.metrics[reading.change.metric].title} · ${place}`);
        await expect(listed.nth(index)).toContainText(t.reading.change[reading.kind]);
      }
      // The noise floor is explained once, folded in "Why 'no real change'?", not at the top.
      await expect(summary.getByText(t.reading.why.measured.split('{{')[0]!)).toBeHidden();

      // Small multiples by zone: one figure per place that measures the metric, each with its words.
      const trends = page.getByRole('region', { name: j.trends.title });
      for (const metric of ['redness', 'texture'] as const) {
        await trends.getByRole('combobox', { name: j.trends.metric }).selectOption({ label: t.metrics[metric].title });
        const multiples = smallMultiples(saved, { by: 'zone', metric });
        await expect(trends.getByRole('figure')).toHaveCount(multiples.length);
        for (const multiple of multiples) {
          const place = multiple.series.place;
          const figure = trends.getByRole('figure', { name: place === 'overall' ? j.wholeFace : t.zoneTitles[place] });
          await expect(figure).toContainText(changeWordsIn(lang, multiple.sinceFirst!));
          // The words say what they measure from: the series' first scan (the summary's are since the last alike).
          await expect(figure).toContainText(j.multiples.since.split('{{')[0]!);
          // Its text alternative: the trend in words, with its first and last days.
          await expect(figure.getByRole('img')).toHaveAccessibleName(
            new RegExp(escape(changeWordsIn(lang, multiple.sinceFirst!))),
          );
          // The not-comparable scan is drawn distinct from the others.
          const unsure = multiple.series.points.filter((point) => point.change?.verdict === 'unsure').length;
          await expect(figure.locator('.trend-chart__mark--unsure')).toHaveCount(unsure);
        }
      }
      // By indicator: one figure per metric measured on the forehead.
      // The choice lives in the address: the radio is checked once the page has moved there.
      await trends.getByRole('radio', { name: j.multiples.byMetric }).click();
      await expect(trends.getByRole('radio', { name: j.multiples.byMetric })).toBeChecked();
      await trends.getByRole('combobox', { name: j.trends.zone }).selectOption({ label: t.zoneTitles.forehead });
      await expect(page).toHaveURL(/by=metric&zone=forehead|zone=forehead.*by=metric/);
      const forehead = smallMultiples(saved, { by: 'metric', place: 'forehead' });
      await expect(trends.getByRole('figure')).toHaveCount(forehead.length);
      for (const multiple of forehead)
        await expect(trends.getByRole('figure', { name: t.metrics[multiple.series.metric].title })).toContainText(
          changeWordsIn(lang, multiple.sinceFirst!),
        );
      // Small multiples side by side: two columns on a phone, three or four on a desktop.
      const columns = await trends
        .locator('.journal-multiples')
        .evaluate((list) => getComputedStyle(list).gridTemplateColumns.split(' ').length);
      if (story.size.width === 375) expect(columns).toBe(2);
      else expect(columns).toBeGreaterThanOrEqual(3);
      await expectNoAxeViolations(page, `journal worth opening (${lang}, ${story.size.width})`);

      // Before and after: the newest and the last comparable scan by default, moved with the keyboard.
      const beforeAfter = page.getByRole('region', { name: j.slider.title });
      await expect(beforeAfter.getByRole('combobox', { name: j.slider.before })).toHaveValue('story-3');
      await expect(beforeAfter.getByRole('combobox', { name: j.slider.after })).toHaveValue('story-5');
      await expect(beforeAfter).toContainText(j.slider.alike);
      await expect(beforeAfter).toContainText(j.slider.photos);
      for (const scan of [saved[3]!, saved[5]!]) {
        const date = await day(scan.takenAt, { dateStyle: 'long', timeStyle: 'short' });
        await expect(beforeAfter.getByRole('img', { name: fill(t.compare.photoAlt, { date }) })).toBeVisible();
      }
      // The zones are drawn on both faces, as on the result.
      await expect(beforeAfter.locator('.studio-zone')).toHaveCount(
        2 * template.analysis.zones.filter((zone) => zone.outline.length > 0).length,
      );
      const slider = beforeAfter.getByRole('slider', { name: j.slider.label });
      const reveal = () =>
        beforeAfter
          .locator('svg')
          .nth(1)
          .evaluate((svg) => getComputedStyle(svg).clipPath);
      await expect(slider).toHaveValue('50');
      const half = await reveal();
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await expect(slider).toHaveValue('51');
      await page.keyboard.press('End');
      await expect(slider).toHaveValue('100');
      await expect(slider).toHaveAttribute('aria-valuetext', fill(j.slider.valueText, { before: 100, after: 0 }));
      expect(await reveal()).not.toBe(half);
      await page.keyboard.press('Home');
      await expect(slider).toHaveValue('0');
      expect(await reveal()).toContain('0');
      // Dragging moves it too.
      // The press goes through hover, which scrolls the stage into view and waits until it is still (the
      // mouse acts at viewport coordinates: a stage measured mid-scroll was missed); the value is read once
      // the drag's last move has been handled.
      const stage = beforeAfter.locator('.before-after__stage');
      const size = (await stage.boundingBox())!;
      await stage.hover({ position: { x: size.width * 0.1, y: size.height / 2 } });
      await page.mouse.down();
      const box = (await stage.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(70);
      expect(Number(await slider.inputValue())).toBeLessThanOrEqual(80);
      // The zones on both photos are drawn in their own colours, with a light fill (their outline styles
      // come with the slider, whichever page loaded it first).
      const noseOutlines = beforeAfter.locator('.studio-zone--nose');
      await expect(noseOutlines).toHaveCount(2);
      for (const outline of await noseOutlines.all()) {
        const style = await outline.evaluate((path) => {
          const computed = getComputedStyle(path);
          return { stroke: computed.stroke, fillOpacity: computed.fillOpacity };
        });
        expect(style).toEqual({ stroke: 'rgb(55, 178, 77)', fillOpacity: '0.14' });
      }
      // Chosen against the scan under the lamp: not comparable, said plainly, previews only.
      await beforeAfter.getByRole('combobox', { name: j.slider.before }).selectOption('story-4');
      await expect(beforeAfter).toContainText(fill(j.slider.notComparable, { reasons: j.reasons.light }));
      await expect(beforeAfter).toContainText(j.slider.previews);

      // Scan cards: the preview, the day and the notable changes in words.
      const cards = scanCards(page, j.timeline.title);
      await expect(cards).toHaveCount(saved.length);
      const newest = cards.first();
      // Its preview (decorative beside the scan's title, alt=""), loaded.
      const preview = newest.locator('img');
      await preview.scrollIntoViewIfNeeded();
      await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
      const own = notableChanges(saved, saved[5]!)!;
      if (own.status === 'compared')
        for (const reading of own.real) await expect(newest).toContainText(changeWordsIn(lang, reading));
      await expect(cards.nth(1)).toContainText(
        fill(j.timeline.notComparable, { date: await day(saved[3]!.takenAt), reasons: j.reasons.light }),
      );

      // Deleting: a quiet secondary action, confirmed in a dialog; Cancel and Escape keep the scan.
      const lamp = cards.nth(1);
      const remove = lamp.getByRole('button', { name: new RegExp(`^${j.timeline.delete}`) });
      await remove.click();
      const dialog = page.getByRole('dialog', { name: j.timeline.deleteTitle });
      await expect(dialog).toBeVisible();
      const when = await day(saved[4]!.takenAt, { dateStyle: 'long', timeStyle: 'short' });
      await expect(dialog).toContainText(fill(j.timeline.deleteConfirm, { date: when }));
      await expect(dialog.getByRole('button', { name: j.timeline.deleteCancel })).toBeFocused();
      await dialog.getByRole('button', { name: j.timeline.deleteCancel }).click();
      await expect(dialog).toBeHidden();
      await expect(remove).toBeFocused();
      await expect(cards).toHaveCount(saved.length);
      await remove.click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(cards).toHaveCount(saved.length);
      expect((await savedScans(page)).map((scan) => scan.id)).toContain('story-4');
      await remove.click();
      await dialog.getByRole('button', { name: j.timeline.deleteConfirmButton }).click();
      await expect(dialog).toBeHidden();
      await expect(cards).toHaveCount(saved.length - 1);
      await expect(
        page.getByRole('status').filter({ hasText: fill(j.timeline.deleted, { date: when }) }),
      ).toBeVisible();
      expect((await savedScans(page)).map((scan) => scan.id)).not.toContain('story-4');

      // The comparison: the same slider, and axe.
      await page.goto('/studio/compare?a=story-0&b=story-5');
      await expect(page.getByRole('heading', { level: 1, name: t.compare.title })).toBeVisible();
      const compareSlider = page.getByRole('slider', { name: j.slider.label });
      await compareSlider.focus();
      await page.keyboard.press('ArrowLeft');
      await expect(compareSlider).toHaveValue('49');
      await expectNoAxeViolations(page, `comparison worth opening (${lang}, ${story.size.width})`);

      expectHealthy(health, `the journal worth opening (${lang}, ${story.size.width})`);
      expectPrivate(requests);
      await context.close();
    });
  }
});
