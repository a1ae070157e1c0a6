import { METRIC_IDS, type MetricId, type ZoneId } from '@skanova/skin/contract';
import { type MetricChange, noiseFloor } from '@skanova/skin/trend';
import type { Concern, ConsultationProfile } from './profile.ts';
import type { RoutineRule } from './routine-rules.ts';
import { aimOf, readChange, readLevel, realChanges } from './reading.ts';
import { type Routine, type RoutineEntry, buildRoutine, metricName, stepName, stepsFor } from './routines.ts';
import {
  FAST_CHANGE,
  type FastChange,
  type ScanResult,
  type Score,
  compareLatest,
  fastChanges,
  latestScan,
  mostMarked,
  mostMarkedZone,
  standouts,
} from './scan-results.ts';
import { type TextLine, type TextValue, dateOf, decimalOf, keyOf, line } from './text.ts';

// "Ask about my results" (docs/product/web-app.md#consultation): a guided set of questions, each answered from the visitor's
// own scans and profile by rules and text templates (group `consultation` of the `studio` strings).
// Scores and changes are read as every screen reads them (reading.ts: a score stands out or not, a
// change is no real change, better, worse or not comparable); what a zone's score can come from is
// written per zone. Cosmetic words only: the scores are signs in a photo, never a diagnosis. Where a change is fast and
// large (scan-results FAST_CHANGE) or the visitor asks about something a photo cannot judge, the answer
// says to see a dermatologist.

/**
 * What the photo can say about each concern of the questionnaire: the metrics that show its signs, and
 * a note when what the scan measures is only part of it (or none: dryness).
 */
export const CONCERN_SIGNS: Readonly<Record<Concern, { metrics: readonly MetricId[]; note?: string }>> = {
  redness: { metrics: ['redness'] },
  'uneven-tone': { metrics: ['evenness'] },
  shine: { metrics: ['shine'] },
  texture: { metrics: ['texture'] },
  'dark-circles': { metrics: ['darkCircles'] },
  'fine-lines': { metrics: ['texture'], note: 'fineLines' },
  blemishes: { metrics: ['redness', 'evenness'], note: 'blemishes' },
  dryness: { metrics: [], note: 'dryness' },
};

/** How long before a routine's effect can show in the scans (weeks), said in the answers. */
export const ROUTINE_WEEKS = { from: 6, to: 8 } as const;

/** The most changes "what changed" lists one by one (the others are counted). */
const LISTED_CHANGES = 6;

export type QuestionId =
  | 'standouts'
  | 'changes'
  | 'whyNoRealChange'
  | 'routine'
  | `concern:${Concern}`
  | 'reliability'
  | 'dermatologist'
  | 'unusualSign';

export interface Question {
  readonly id: QuestionId;
  readonly text: TextLine;
}

/** A paragraph, or a list of items. */
export type AnswerBlock =
  { readonly kind: 'text'; readonly line: TextLine } | { readonly kind: 'list'; readonly items: readonly TextLine[] };

/** Where an answer can lead: a new scan, the questionnaire, the routine. */
export type AnswerAction = 'scan' | 'questionnaire' | 'routine';

export interface Answer {
  readonly question: QuestionId;
  readonly blocks: readonly AnswerBlock[];
  /** Set when the answer suggests seeing a dermatologist: why (`consultation.dermatologist.*`). */
  readonly dermatologist: TextLine | null;
  readonly actions: readonly AnswerAction[];
}

export interface ConsultationInput {
  /** Undefined until the questionnaire is answered. */
  readonly profile: ConsultationProfile | undefined;
  readonly scans: readonly ScanResult[];
}

const text = (key: string, values?: Record<string, TextValue>): AnswerBlock => ({
  kind: 'text',
  line: line(`consultation.answers.${key}`, values),
});
const list = (items: TextLine[]): AnswerBlock => ({ kind: 'list', items });
const placeName = (place: string) => keyOf(place === 'overall' ? 'consultation.wholeFace' : `zones.${place}`);
const concernName = (concern: Concern) => keyOf(`consultation.choices.concerns.${concern}`);
const score = (value: number) => Math.round(value);
/** A metric's name at the start of a sentence or an item ("Shine", « Brillance »). */
const metricTitle = (metric: MetricId) => keyOf(`metrics.${metric}.title`);

/** The questions offered, in order: those about the results first, the profile's concerns among them. */
export function questions(input: ConsultationInput): Question[] {
  const asked: Question[] = [{ id: 'standouts', text: line('consultation.questions.standouts') }];
  asked.push({ id: 'changes', text: line('consultation.questions.changes') });
  asked.push({ id: 'whyNoRealChange', text: line('reading.why.question') });
  for (const concern of input.profile?.concerns ?? [])
    asked.push({
      id: `concern:${concern}`,
      text: line('consultation.questions.concern', { concern: concernName(concern) }),
    });
  asked.push({ id: 'routine', text: line('consultation.questions.routine') });
  asked.push({ id: 'reliability', text: line('consultation.questions.reliability') });
  asked.push({ id: 'dermatologist', text: line('consultation.questions.dermatologist') });
  asked.push({ id: 'unusualSign', text: line('consultation.questions.unusualSign') });
  return asked;
}

/** The dermatologist prompt for a fast large change (the largest one). */
export function fastChangePrompt(scans: readonly ScanResult[]): TextLine | null {
  const [largest] = fastChanges(scans);
  return largest ? fastChangeLine(largest) : null;
}

function fastChangeLine({ change, before, after, days }: FastChange): TextLine {
  return line('consultation.dermatologist.fastChange', {
    metric: metricTitle(change.metric),
    place: placeName(change.place),
    before: score(change.before),
    after: score(change.after),
    from: dateOf(before.takenAt),
    to: dateOf(after.takenAt),
    count: days,
    floor: decimalOf(change.floor),
  });
}

export function answer(id: QuestionId, input: ConsultationInput): Answer {
  const base = { question: id, dermatologist: null, actions: [] as AnswerAction[] };
  if (id === 'unusualSign')
    return {
      ...base,
      blocks: [text('unusualSign'), list(signsList())],
      dermatologist: line('consultation.dermatologist.unusualSign'),
    };
  if (id === 'dermatologist') return { ...base, ...dermatologistAnswer(input.scans) };
  if (id === 'reliability') return { ...base, blocks: reliabilityAnswer(input.scans) };
  if (id === 'whyNoRealChange') return { ...base, blocks: whyNoRealChange() };
  const latest = latestScan(input.scans);
  if (!latest) return { ...base, blocks: [text('noScan')], actions: ['scan'] };
  if (id === 'standouts') return { ...base, blocks: standoutsAnswer(latest) };
  if (id === 'changes') return { ...base, ...changesAnswer(input.scans) };
  if (!input.profile) return { ...base, blocks: [text('noProfile')], actions: ['questionnaire'] };
  const routine = buildRoutine(input.profile, input.scans);
  if (id === 'routine') return { ...base, blocks: routineAnswer(input.profile, latest, routine), actions: ['routine'] };
  const concern = id.slice('concern:'.length) as Concern;
  return { ...base, blocks: concernAnswer(concern, input.scans, routine), actions: ['routine'] };
}

function signsList(): TextLine[] {
  return ['changing', 'bleeding', 'painful', 'new', 'lasting'].map((sign) =>
    line(`consultation.answers.signs.${sign}`),
  );
}

/**
 * Zones alike enough to share what their scores can come from: both cheeks (`consultation.answers.inZone.<group>.<metric>`).
 */
const ZONE_GROUP: Readonly<Record<ZoneId, string>> = {
  forehead: 'forehead',
  leftCheek: 'cheek',
  rightCheek: 'cheek',
  eyeArea: 'eyeArea',
  nose: 'nose',
  chin: 'chin',
  lipContour: 'lipContour',
};

/** What this metric's score can come from in this zone, written for the zone; none for the whole face. */
function inZone(found: Score): AnswerBlock[] {
  return found.place === 'overall' ? [] : [text(`inZone.${ZONE_GROUP[found.place]}.${found.metric}`)];
}

/** What a metric means and does not: said once in an answer, after the first score of that metric. */
function meaningOnce(metric: MetricId, said: Set<MetricId>): AnswerBlock[] {
  if (said.has(metric)) return [];
  said.add(metric);
  return [list([line(`metrics.${metric}.means`), line(`metrics.${metric}.notMeans`)])];
}

/** "Shine on your nose: 50/100. This score stands out from 45." then what it can come from there. */
function standoutLines(found: Score, said: Set<MetricId>): AnswerBlock[] {
  const level = readLevel(found.metric, found.place, found.value);
  return [
    text(`standout.${level.aim}`, {
      metric: metricTitle(found.metric),
      zone: placeName(found.place),
      value: score(found.value),
      threshold: level.threshold,
    }),
    ...inZone(found),
    ...meaningOnce(found.metric, said),
  ];
}

function standoutsAnswer(latest: ScanResult): AnswerBlock[] {
  const found = standouts(latest.analysis);
  const date = dateOf(latest.takenAt);
  const said = new Set<MetricId>();
  if (found.length === 0) {
    const top = mostMarked(latest.analysis);
    if (!top) return [text('noZone', { date })];
    return [
      text('noStandout', { date }),
      text(`closest.${aimOf(top.metric)}`, {
        metric: metricName(top.metric),
        zone: placeName(top.place),
        value: score(top.value),
        threshold: readLevel(top.metric, top.place, top.value).threshold,
      }),
      ...inZone(top),
      ...meaningOnce(top.metric, said),
    ];
  }
  return [
    text('standouts', { date, count: found.length }),
    ...found.flatMap((score) => standoutLines(score, said)),
    text('standoutsAfter'),
  ];
}

/** "Shine on the nose: 40 → 52/100, more shine: worse." — the change as every screen reads it. */
function changeLine(change: MetricChange): TextLine {
  const reading = readChange(change);
  return line(`consultation.answers.change.${reading.kind}`, {
    metric: metricTitle(change.metric),
    place: placeName(change.place),
    before: score(change.before),
    after: score(change.after),
    ...(reading.movementKey ? { movement: keyOf(reading.movementKey) } : {}),
  });
}

function changesAnswer(scans: readonly ScanResult[]): Pick<Answer, 'blocks' | 'dermatologist' | 'actions'> {
  const comparison = compareLatest(scans);
  if (!comparison)
    return {
      blocks: [text('oneScan', { date: dateOf(latestScan(scans)!.takenAt) })],
      dermatologist: null,
      actions: ['scan'],
    };
  const dates = {
    from: dateOf(comparison.before.takenAt),
    to: dateOf(comparison.after.takenAt),
    count: comparison.days,
  };
  if (!comparison.comparable) return { blocks: [text('notComparable', dates)], dermatologist: null, actions: [] };
  const real = realChanges(comparison.changes.map(readChange)).map((reading) => reading.change);
  const stable = comparison.changes.length - real.length;
  const blocks: AnswerBlock[] = [text('changesBetween', dates)];
  if (real.length === 0) blocks.push(text('allStable', { count: stable }));
  else {
    blocks.push(list(real.slice(0, LISTED_CHANGES).map(changeLine)));
    if (real.length > LISTED_CHANGES) blocks.push(text('moreChanges', { count: real.length - LISTED_CHANGES }));
    blocks.push(text('stableCount', { count: stable }));
  }
  return { blocks, dermatologist: fastChangePrompt(scans), actions: [] };
}

/** The rules that answer a metric or a concern. */
const answersMetric = (metric: MetricId) => (rule: RoutineRule) =>
  rule.when.some((condition) => condition.kind === 'metric' && condition.metric === metric);
const answersConcern = (concern: Concern) => (rule: RoutineRule) =>
  rule.when.some((condition) => condition.kind === 'concern' && condition.concern === concern);

const stepList = (entries: readonly RoutineEntry[]) => ({ list: entries.map((entry) => stepName(entry.step.id)) });

function routineAnswer(profile: ConsultationProfile, latest: ScanResult, routine: Routine): AnswerBlock[] {
  const items: TextLine[] = [];
  for (const found of standouts(latest.analysis)) {
    const steps = stepsFor(routine, answersMetric(found.metric));
    const values = { metric: metricTitle(found.metric), zone: placeName(found.place), value: score(found.value) };
    items.push(
      steps.length > 0
        ? line('consultation.answers.routineForScore', { ...values, steps: stepList(steps) })
        : line('consultation.answers.routineNothingForScore', values),
    );
  }
  for (const concern of profile.concerns) {
    const steps = stepsFor(routine, answersConcern(concern));
    items.push(
      steps.length > 0
        ? line('consultation.answers.routineForConcern', { concern: concernName(concern), steps: stepList(steps) })
        : line('consultation.answers.routineNothingForConcern', { concern: concernName(concern) }),
    );
  }
  const blocks: AnswerBlock[] = [];
  if (items.length === 0) blocks.push(text('routineBasics'));
  else blocks.push(text('routineIntro'), list(items));
  if (routine.leftOut.length > 0)
    blocks.push(text('routineLeftOut', { steps: { list: routine.leftOut.map((entry) => stepName(entry.step.id)) } }));
  blocks.push(text('routineExpect', { from: ROUTINE_WEEKS.from, to: ROUTINE_WEEKS.to }));
  return blocks;
}

function concernAnswer(concern: Concern, scans: readonly ScanResult[], routine: Routine): AnswerBlock[] {
  const signs = CONCERN_SIGNS[concern];
  const latest = latestScan(scans)!;
  const comparison = compareLatest(scans);
  const blocks: AnswerBlock[] = [];
  if (signs.note) blocks.push(text(`concernNotes.${signs.note}`));
  for (const metric of signs.metrics) {
    const face = latest.analysis.overall[metric];
    const zone = mostMarkedZone(latest.analysis, metric) ?? { metric, place: 'overall', value: face };
    blocks.push(
      text(readLevel(metric, zone.place, zone.value).standsOut ? 'concernStandsOut' : 'concernUsual', {
        metric: metricName(metric),
        value: score(face),
        zone: placeName(zone.place),
        zoneValue: score(zone.value),
        date: dateOf(latest.takenAt),
      }),
      ...inZone(zone),
    );
    const change = comparison?.changes.find(
      (candidate) => candidate.metric === metric && candidate.place === 'overall',
    );
    if (comparison && change) blocks.push(list([changeLine(change)]));
  }
  if (signs.metrics.length > 0 && !comparison) blocks.push(text('concernOneScan'));
  const steps = stepsFor(
    routine,
    (rule) => answersConcern(concern)(rule) || signs.metrics.some((metric) => answersMetric(metric)(rule)),
  );
  blocks.push(
    steps.length > 0
      ? text('concernRoutine', { steps: stepList(steps) })
      : text('concernNoRoutine', { concern: concernName(concern) }),
  );
  return blocks;
}

/** Why a small difference is "no real change": the one plain explanation of the noise floor. */
function whyNoRealChange(): AnswerBlock[] {
  return ['photo', 'measured', 'words'].map((part) => ({
    kind: 'text',
    line: line(`reading.why.${part}`, { redness: decimalOf(noiseFloor('redness', 'overall') ?? 1) }),
  }));
}

function reliabilityAnswer(scans: readonly ScanResult[]): AnswerBlock[] {
  return [
    text('reliabilityFloors'),
    list(
      METRIC_IDS.map((metric) =>
        line('consultation.answers.floorOf', {
          metric: metricTitle(metric),
          floor: decimalOf(noiseFloor(metric, 'overall') ?? 1),
          count: noiseFloor(metric, 'overall') ?? 1,
        }),
      ),
    ),
    text('reliabilityScans', { count: scans.length }),
    list(['light', 'place', 'bare', 'weekly'].map((tip) => line(`consultation.answers.tips.${tip}`))),
    text('reliabilityLimits'),
  ];
}

function dermatologistAnswer(scans: readonly ScanResult[]): Pick<Answer, 'blocks' | 'dermatologist' | 'actions'> {
  const blocks: AnswerBlock[] = [text('dermatologistWhen'), list(signsList())];
  const found = fastChanges(scans);
  const rule = { multiple: FAST_CHANGE.floorMultiple, points: FAST_CHANGE.minPoints, count: FAST_CHANGE.withinDays };
  if (found.length > 0) {
    blocks.push(text('dermatologistFast', rule), list(found.slice(0, LISTED_CHANGES).map(fastChangeLine)));
    return { blocks, dermatologist: fastChangeLine(found[0]!), actions: [] };
  }
  blocks.push(text(scans.length > 1 ? 'dermatologistNothingFast' : 'dermatologistFewScans', rule));
  return { blocks, dermatologist: null, actions: [] };
}
