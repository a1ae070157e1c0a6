import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Locator, type Page, expect, test } from '@playwright/test';
import type { ZoneId } from '@skanova/skin/contract';
import { encodeJpeg, readImage } from '../packages/skin/test/images';
import { nodeFaceModel } from '../packages/skin/test/node-face-model';
import { analyseFace } from '../packages/skin/src/analyse';
import { addHighlight, addRedness } from '../packages/skin/test/phantoms';
import { readLevel } from '../packages/shared/src/studio/reading';
import { MARKED_FROM, zoneScores } from '../packages/shared/src/studio/scan-results';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, fill, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  recordRequests,
  startFromHomePage,
  studioSizesFor,
} from './helpers/studio';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The consultation and the routine (docs/product/web-app.md#consultation, docs/product/web-app.md#routines): after a scan, the visitor answers the
// questionnaire, asks about their results and reads answers that quote their own scores; the routine
// lists its morning and evening steps with the reasons, which quote them too; changing an answer
// changes the routine, and the routine says what changed and why. Both languages, phone and desktop;
// nothing leaves the device.

/**
 * The photo scanned: the test photo with a specular highlight over a quarter of its nose, placed by
 * the analysis's own nose zone (packages/skin/test/phantoms.ts), so that shine on the nose is the one
 * score that stands out. (With analysis skin-1 the photo's nose read 50 as taken, from the nose ridge's
 * geometry; skin-2 reads 0 there.)
 */
const SHINY_FACE_PHOTO = path.join(ROOT, `test-results/shiny-nose-${process.env.E2E_PORT ?? 3100}.jpg`);
const SHINE_STANDS_OUT_FROM = MARKED_FROM.shine;

test.beforeAll(async () => {
  const image = readImage(FACE_PHOTO);
  const [face] = await (await nodeFaceModel()).detect(image);
  let shiny = addHighlight(image, face!, 'nose', { share: 0.25 }).image;
  // Analysis skin-3 reads the photo's right cheek and lip contour at about 38 redness (it stands out from
  // 30): both are calmed by 4 a*, so that the nose's shine stays the one score this test follows.
  for (const zone of ['rightCheek', 'lipContour'] as const) shiny = addRedness(shiny, face!, zone, -4);
  const standOut = zoneScores(analyseFace(shiny, face!).analysis)
    .filter((score) => readLevel(score.metric, score.place, score.value).standsOut)
    .map((score) => `${score.place}/${score.metric}`);
  expect(standOut, 'the photo scanned has one score that stands out, the shine of its nose').toEqual(['nose/shine']);
  mkdirSync(path.dirname(SHINY_FACE_PHOTO), { recursive: true });
  writeFileSync(SHINY_FACE_PHOTO, encodeJpeg(shiny, 92));
});

/** `{{name}}` → value, as the page's i18n does. */

/** The shiniest zone of the scan the device saved (read from IndexedDB as the app wrote it). */
function savedShine(page: Page): Promise<{ zone: ZoneId; value: number; takenAt: string }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('skanova-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('scans').objectStore('scans').getAll();
          all.onsuccess = () => {
            open.result.close();
            const [scan] = all.result as {
              takenAt: string;
              analysis: { zones: { zone: string; metrics: Record<string, number> }[] };
            }[];
            const shiniest = scan!.analysis.zones
              .filter((zone) => zone.metrics.shine !== undefined)
              .sort((a, b) => b.metrics.shine! - a.metrics.shine!)[0]!;
            resolve({ zone: shiniest.zone as ZoneId, value: shiniest.metrics.shine!, takenAt: scan!.takenAt });
          };
        };
      }),
  );
}

async function scanTheTestPhoto(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await page.getByRole('link', { name: t.home.newScan }).click();
  await page.getByLabel(t.scan.uploadPhoto).setInputFiles(SHINY_FACE_PHOTO);
  await expect(page.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
    timeout: ANALYSIS_TIMEOUT,
  });
  await page.getByRole('button', { name: t.result.save }).click();
  await expect(page.getByText(t.result.saved)).toBeVisible();
}

function section(page: Page, lang: Lang, key: 'consultation' | 'routine'): Promise<void> {
  const t = strings(lang, 'studio');
  return page
    .getByRole('navigation', { name: t.layout.nav.label })
    .getByRole('link', { name: t.layout.nav[key] })
    .click();
}

/** The questionnaire: one choice per question, found by the question's legend and the choice's label. */
async function answer(form: Locator, lang: Lang, answers: Record<string, string | string[]>) {
  const q = strings(lang, 'studio').consultation;
  for (const [question, chosen] of Object.entries(answers)) {
    const group = form.getByRole('group', { name: q.fields[question] });
    for (const choice of Array.isArray(chosen) ? chosen : [chosen]) {
      // A choice's name starts with its label (the skin types add a hint after it).
      const label = new RegExp(`^${(q.choices[question][choice] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      await group.getByRole(Array.isArray(chosen) ? 'checkbox' : 'radio', { name: label }).check();
    }
  }
}

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');
  const q = t.consultation;
  const r = t.routine;
  const locale = lang === 'fr' ? 'fr-FR' : 'en-GB';
  const date = (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

  for (const size of studioSizesFor(lang, { crossed: true })) {
    test(`${lang} ${size.name}: a scan → the questionnaire → answers and a routine from the real results → a changed answer changes the routine`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ viewport: size, locale, timezoneId: 'UTC' });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
      await startFromHomePage(page, lang);
      await scanTheTestPhoto(page, lang);
      const shine = await savedShine(page);
      const value = Math.round(shine.value);
      expect(value, 'the test photo shows shine that stands out').toBeGreaterThanOrEqual(SHINE_STANDS_OUT_FROM);

      // The questionnaire: unanswered questions say so, under each.
      await section(page, lang, 'consultation');
      await expect(page.getByRole('heading', { level: 1, name: q.title })).toBeVisible();
      const profile = page.getByRole('region', { name: q.profile.title });
      await profile.getByRole('button', { name: q.profile.save }).click();
      await expect(profile.getByRole('alert')).toHaveText(q.profile.errorSummary);
      await expect(profile.getByRole('group', { name: q.fields.ageBand })).toContainText(q.errors.ageBand);
      await expectNoAxeViolations(page, `questionnaire with errors (${lang})`);
      await answer(profile, lang, {
        skinType: 'combination',
        sensitivity: 'sometimes',
        concerns: ['shine', 'redness'],
        sunExposure: 'moderate',
        currentRoutine: ['cleanser'],
        ageBand: '25-34',
      });
      await profile.getByRole('button', { name: q.profile.save }).click();
      await expect(profile.getByRole('status')).toHaveText(q.profile.saved);
      await expect(profile.getByText(q.choices.skinType.combination, { exact: true })).toBeVisible();

      // Ask about the results: the answers quote the saved scan's own score.
      const ask = page.getByRole('region', { name: q.ask.title });
      await ask.getByRole('button', { name: q.questions.standouts }).click();
      await expect(
        ask.getByText(
          fill(q.answers.standout.lower, {
            zone: t.zones[shine.zone],
            metric: t.metrics.shine.title,
            value,
            threshold: SHINE_STANDS_OUT_FROM,
          }),
        ),
      ).toBeVisible();
      // What shine on this zone can come from, written for the zone.
      if (shine.zone === 'nose') await expect(ask.getByText(q.answers.inZone.nose.shine)).toBeVisible();
      await expect(ask.getByText(t.metrics.shine.notMeans)).toBeVisible();
      await ask.getByRole('button', { name: q.questions.changes }).click();
      await expect(ask.getByText(fill(q.answers.oneScan, { date: date(shine.takenAt) }))).toBeVisible();
      await ask.getByRole('button', { name: q.questions.unusualSign }).click();
      await expect(ask.getByRole('note').filter({ hasText: q.dermatologist.unusualSign })).toBeVisible();
      await expectNoAxeViolations(page, `consultation answers (${lang})`);

      // The routine: morning and evening steps, each with its reasons, quoting the scan.
      await page.getByRole('link', { name: q.profile.seeRoutine }).click();
      await expect(page.getByRole('heading', { level: 1, name: r.title })).toBeVisible();
      const morning = page.getByRole('region', { name: new RegExp(`^${r.morning}`) });
      const evening = page.getByRole('region', { name: new RegExp(`^${r.evening}`) });
      await expect(morning.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(
        4,
      );
      const bha = evening
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: r.steps['bha-exfoliant'].name }) });
      // The scan's reason for the exfoliant quotes shine on the T-zone (forehead, nose, chin) only.
      if (['forehead', 'nose', 'chin'].includes(shine.zone))
        await expect(
          bha.getByText(
            fill(r.reasons.bhaShineScan, {
              value,
              zone: t.zones[shine.zone],
              date: date(shine.takenAt),
              threshold: SHINE_STANDS_OUT_FROM,
            }),
          ),
        ).toBeVisible();
      await expect(bha.getByText(r.reasons.bhaShine)).toBeVisible();
      await expect(morning.getByRole('heading', { name: r.steps['spf-30'].name })).toBeVisible();
      // A skin that reacts sometimes: two actives per routine, the third left out, with why.
      const leftOut = page.getByRole('region', { name: r.leftOutTitle });
      await expect(leftOut.getByRole('heading', { name: r.steps['azelaic-acid'].name })).toBeVisible();
      await expect(page.getByRole('region', { name: r.changes.title })).toHaveCount(0);
      await expectNoAxeViolations(page, `routine (${lang})`);

      // A changed answer: the skin now reacts often.
      await section(page, lang, 'consultation');
      await page.getByRole('button', { name: q.profile.edit }).click();
      await answer(page.getByRole('region', { name: q.profile.title }), lang, { sensitivity: 'often' });
      await page.getByRole('button', { name: q.profile.save }).click();
      await expect(page.getByRole('status')).toHaveText(q.profile.saved);
      await section(page, lang, 'routine');
      const changes = page.getByRole('region', { name: r.changes.title });
      await expect(changes).toBeVisible();
      await expect(changes.getByText(r.changes.answers.split('{{')[0]!)).toBeVisible();
      const removed = changes.getByRole('listitem').filter({
        hasText: fill(r.changes.inRoutine, { step: r.steps['bha-exfoliant'].name, time: r.times.evening }),
      });
      await expect(removed.getByText(r.safety.sensitiveStrong)).toBeVisible();
      const added = changes.getByRole('listitem').filter({
        hasText: fill(r.changes.inRoutine, {
          step: r.steps['moisturiser-soothing'].name,
          time: new Intl.ListFormat(lang).format([r.times.morning, r.times.evening]),
        }),
      });
      await expect(added.getByText(r.reasons.moisturiseSensitive)).toBeVisible();
      await expect(evening.getByRole('heading', { name: r.steps['bha-exfoliant'].name })).toHaveCount(0);
      await expectNoAxeViolations(page, `routine with changes (${lang})`);
      // What changed is still said after a reload.
      await page.reload();
      await expect(page.getByRole('region', { name: r.changes.title })).toBeVisible();

      expectHealthy(health, `consultation and routine (${lang}, ${size.name})`);
      expectPrivate(requests);
      await context.close();
    });
  }

  test(`${lang}: without a scan, the consultation offers one and the routine comes from the answers alone`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale, timezoneId: 'UTC' });
    await answerCookieBanner(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    await section(page, lang, 'routine');
    await expect(page.getByText(r.noProfile)).toBeVisible();
    await page.getByRole('link', { name: r.toQuestionnaire }).click();
    const profile = page.getByRole('region', { name: q.profile.title });
    await answer(profile, lang, {
      skinType: 'dry',
      sensitivity: 'rarely',
      concerns: ['fine-lines'],
      sunExposure: 'high',
      ageBand: '13-17',
    });
    await profile.getByRole('button', { name: q.profile.save }).click();
    // Saved once the confirmation shows: until then the form is still there, and the questions below
    // move up when it gives way to the summary (a click meanwhile lands where they were).
    await expect(profile.getByRole('status')).toHaveText(q.profile.saved);
    const ask = page.getByRole('region', { name: q.ask.title });
    await expect(ask.getByText(q.ask.noScan)).toBeVisible();
    await ask.getByRole('button', { name: q.questions.standouts }).click();
    await expect(ask.getByText(q.answers.noScan)).toBeVisible();
    await expect(ask.getByRole('link', { name: q.ask.takeScan })).toHaveCount(2);
    await expectNoAxeViolations(page, `consultation without a scan (${lang})`);

    await page.getByRole('link', { name: q.profile.seeRoutine }).click();
    await expect(page.getByText(r.basedOnAnswers.split('{{')[0]!)).toBeVisible();
    // 13 to 17: no retinoid, and the routine says why.
    const leftOut = page.getByRole('region', { name: r.leftOutTitle });
    await expect(leftOut.getByRole('heading', { name: r.steps.retinoid.name })).toBeVisible();
    await expect(leftOut.getByText(r.safety.teenRetinoid)).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: new RegExp(`^${r.morning}`) })
        .getByRole('heading', { name: r.steps['spf-50'].name }),
    ).toBeVisible();
    await expectNoAxeViolations(page, `routine from the answers (${lang})`);
    expectPrivate(requests);
    await context.close();
  });
}
