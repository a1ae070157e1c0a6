import { readFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import ICAL from 'ical.js';
import type { Analysis, MetricId, RgbaImage, ZoneId } from '../packages/skin/src/contract.ts';
import { METRIC_IDS, ZONE_IDS } from '../packages/skin/src/contract.ts';
import {
  type MetricChange,
  type Place,
  captureDifferences,
  compareAnalyses,
  compareMetric,
  noiseFloor,
} from '../packages/skin/src/trend.ts';
import { decodeImage, encodeJpeg } from '../packages/skin/test/images.ts';
import { type JournalEntry, type JournalTemplate, seedJournal } from '../bench/lib/journal-seed.ts';
import { readChange } from '../packages/shared/src/studio/reading.ts';
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

/**
 * A change as every studio screen writes it (shared reading.ts): the movement in words beyond the
 * floor ("more redness"), then "better", "worse", "no real change", or "not comparable (maybe the
 * lamp)" when the photos differ.
 */
function words(lang: Lang, change: MetricChange): string {
  const t = strings(lang, 'studio');
  const reading = readChange(change);
  const movement = change.direction === 'stable' ? '' : `${t.reading.moved[change.metric][change.direction]} `;
  const [difference] = reading.differences;
  const verdict = difference
    ? `${t.reading.change.notComparable} (${t.journal.unsure[difference]})`
    : t.reading.change[reading.kind];
  return movement + verdict;
}

/** "+1.5", "−3.0" as the journal writes a change. */
function delta(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' })
    .format(value)
    .replace('-', '\u2212');
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

function scoreOf(analysis: Analysis, place: Place, metric: MetricId): number | undefined {
  return place === 'overall' ? analysis.overall[metric] : analysis.zones.find((z) => z.zone === place)?.metrics[metric];
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
        await expect(page.getByRole('region', { name: j.timeline.title }).getByRole('listitem')).toHaveCount(1);
        await expect(page.getByText(j.trends.oneScan)).toBeVisible();
        await expect(page.getByText(j.since.oneScan)).toBeVisible();
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
    await expect(timeline.getByRole('listitem')).toHaveCount(3);
    const heads = timeline.getByRole('heading', { level: 3 });
    for (const [index, scan] of [third, second, first].entries()) {
      const date = await inPage(page, scan.takenAt, { dateStyle: 'long', timeStyle: 'short' }, lang);
      await expect(heads.nth(index)).toHaveText(fill(t.home.scanOf, { date }));
      await expect(heads.nth(index).getByRole('link')).toHaveAttribute('href', `/studio/result?id=${scan.id}`);
    }
    await expect(timeline.getByRole('listitem').first()).toContainText(t.home.source.upload);

    // The next scan: a week after the latest.
    const dueIso = new Date(weeks[2]! + 7 * DAY).toISOString();
    const dueDay = await dueInPage(page, dueIso, new Date(weeks[2]!).toISOString(), lang);
    await expect(page.getByText(plural(lang, j.next, 'upcoming', 7, { date: dueDay }))).toBeVisible();

    // What changed since the previous scan: every real change, with its verdict; the rest no real change.
    const since = compareAnalyses(second.analysis, third.analysis);
    const real = since.filter((change) => change.verdict !== 'stable');
    const sinceCard = page.getByRole('region', { name: j.since.title });
    if (real.length === 0) await expect(sinceCard).toContainText(plural(lang, j.since, 'none', since.length));
    else {
      await expect(sinceCard.getByRole('listitem')).toHaveCount(Math.min(5, real.length));
      await expect(sinceCard).toContainText(plural(lang, j.since, 'rest', since.length - real.length));
    }

    // Trends: the zone and metric of the flush, each change with its verdict and the floor stated.
    const trends = page.getByRole('region', { name: j.trends.title });
    const { place, metric } = flushed[0]!;
    const placeName = place === 'overall' ? j.wholeFace : t.zoneTitles[place];
    await trends.getByLabel(j.trends.zone).selectOption({ label: placeName });
    await trends.getByLabel(j.trends.metric).selectOption({ label: t.metrics[metric].title });
    await expect(page).toHaveURL(new RegExp(`zone=${place}&metric=${metric}`));
    const name = `${t.metrics[metric].title} — ${placeName}`;
    await expect(trends.getByRole('heading', { level: 3, name })).toBeVisible();
    await expect(trends.getByRole('img', { name: fill(j.trends.chartTitle, { name }) })).toBeVisible();
    const floor = noiseFloor(metric, place)!;
    const floorText = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(floor);
    await expect(trends.getByText(plural(lang, j.trends, 'floor', floor, { floor: floorText }))).toBeVisible();
    const values = saved.map((scan) => scoreOf(scan.analysis, place, metric)!);
    // Each change judged with what differed between the two photos (beyond the floor then: unsure).
    const between = (a: Saved, b: Saved, from: number, to: number) =>
      compareMetric(metric, place, from, to, captureDifferences(a.analysis, b.analysis));
    const step = between(second, third, values[1]!, values[2]!);
    const overall = between(first, third, values[0]!, values[2]!);
    const headline = trends.getByRole('definition');
    await expect(headline.first()).toContainText(
      `${Math.round(values[1]!)} → ${Math.round(values[2]!)} (${delta(step.delta, lang)}) ${words(lang, step)}`,
    );
    await expect(headline.nth(1)).toContainText(
      `${Math.round(values[0]!)} → ${Math.round(values[2]!)} (${delta(overall.delta, lang)}) ${words(lang, overall)}`,
    );
    // The figures as a table: every scan, newest first, each change with its verdict.
    await trends.getByText(j.trends.showTable).click();
    const rows = trends.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(4);
    const jump = between(first, second, values[0]!, values[1]!);
    await expect(rows.nth(2)).toContainText(`${Math.round(values[1]!)}${delta(jump.delta, lang)} ${words(lang, jump)}`);
    await expect(rows.nth(3)).toContainText(j.trends.firstScan);
    await expectNoAxeViolations(page, `journal with three scans (${lang})`);

    // The weekly reminder: a calendar file in the visitor's language and time zone, from the due day.
    const reminder = await downloadReminder(page, j.reminder.add);
    expectWeeklyReminder(reminder, lang, timeZone, new Date(weeks[2]! + 7 * DAY));
    await expect(page.getByRole('status').filter({ hasText: j.reminder.done })).toBeVisible();

    // Comparing the two latest scans, then the first with the latest.
    await sinceCard.getByRole('link', { name: j.since.compare }).click();
    await expect(page).toHaveURL(new RegExp(`/studio/compare\\?a=${second.id}&b=${third.id}$`));
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
    const middle = page.getByRole('region', { name: j.timeline.title }).getByRole('listitem').nth(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await middle.getByRole('button', { name: new RegExp(`^${j.timeline.delete}`) }).click();
    await expect(page.getByRole('region', { name: j.timeline.title }).getByRole('listitem')).toHaveCount(2);
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
    await page.goto('/studio/journal?zone=overall&metric=texture');

    const trends = page.getByRole('region', { name: j.trends.title });
    await expect(
      trends.getByRole('heading', { level: 3, name: `${t.metrics.texture.title} — ${j.wholeFace}` }),
    ).toBeVisible();
    const [t0, t1, t2] = textures.map(Math.round) as [number, number, number];
    await expect(trends.getByRole('definition').first()).toContainText(
      `${t1} → ${t2} (${delta(over, lang)}) ${t.reading.moved.texture.up} ${t.reading.change.worse}`,
    );
    await expect(trends.getByRole('definition').nth(1)).toContainText(
      `${t0} → ${t2} (${delta(under + over, lang)}) ${t.reading.moved.texture.up} ${t.reading.change.worse}`,
    );
    const floorText = new Intl.NumberFormat(lang).format(floor);
    await expect(trends.getByText(plural(lang, j.trends, 'floor', floor, { floor: floorText }))).toBeVisible();
    await trends.getByText(j.trends.showTable).click();
    await expect(trends.getByRole('row').nth(2)).toContainText(
      `${t1}${delta(under, lang)} ${t.reading.change.noRealChange}`,
    );
    // Since the previous scan, the only real change is the texture's.
    const sinceCard = page.getByRole('region', { name: j.since.title });
    await expect(sinceCard.getByRole('listitem')).toHaveCount(1);
    await expect(sinceCard.getByRole('listitem')).toContainText(`${t.metrics.texture.title} · ${j.wholeFace}`);
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
