import type { Place } from '@skanova/skin/trend';
import type { ConsultationProfile } from './profile.ts';
import {
  type Condition,
  ROUTINE_RULES,
  ROUTINE_RULES_VERSION,
  ROUTINE_TIMES,
  type RoutineRule,
  type RoutineTime,
  SAFETY_RULES,
  SINGLE_SLOTS,
  STEPS,
  STEP_SLOTS,
  type StepDefinition,
  type StepId,
  type StepTag,
  stepById,
} from './routine-rules.ts';
import { readLevel } from './reading.ts';
import { type ScanResult, latestScan, markedness, scoreAt } from './scan-results.ts';
import { type TextLine, type TextValue, dateOf, keyOf, line } from './text.ts';

// The morning and evening routine (docs/product/web-app.md#routines): the rules of routine-rules.ts applied to the
// visitor's profile and latest scan, each step with the reasons that put it there; then what changed
// against a routine computed or shown before, and why.

/** What a routine was computed from: a new scan or new answers make a new routine. */
export interface RoutineBasis {
  readonly scanId: string | null;
  readonly scanTakenAt: string | null;
  readonly profileUpdatedAt: string;
}

/** One rule that put a step in the routine, with the text that says why. */
export interface RoutineReason extends TextLine {
  readonly rule: string;
}

export interface RoutineEntry {
  readonly step: StepDefinition;
  readonly time: RoutineTime;
  readonly priority: number;
  readonly reasons: readonly RoutineReason[];
}

/** A step the rules selected and a safety rule took out. */
export interface LeftOutEntry {
  readonly step: StepDefinition;
  /** The safety rule and its reason (`routine.safety.*`), with the steps it kept where it limits. */
  readonly safety: string;
  readonly why: TextLine;
  /** Why the step had been selected. */
  readonly reasons: readonly RoutineReason[];
}

export interface Routine {
  readonly basis: RoutineBasis;
  readonly morning: readonly RoutineEntry[];
  readonly evening: readonly RoutineEntry[];
  readonly leftOut: readonly LeftOutEntry[];
}

interface Context {
  readonly profile: ConsultationProfile;
  readonly scan: ScanResult | undefined;
  /** The tags of the routine's other steps (for `withStep`); empty on the first pass. */
  readonly tags: ReadonlySet<StepTag>;
}

interface Evaluation {
  readonly holds: boolean;
  readonly values: Record<string, TextValue>;
}

const choice = (question: string, answer: string) => keyOf(`consultation.choices.${question}.${answer}`);
const placeName = (place: string) => keyOf(place === 'overall' ? 'consultation.wholeFace' : `zones.${place}`);
export const metricName = (metric: string) => keyOf(`metrics.${metric}.name`);
/** A step in a sentence: "the niacinamide serum" (its heading is `routine.steps.<id>.name`). */
export const stepName = (step: string) => keyOf(`routine.steps.${step}.inline`);

/** Whether a condition holds, and the values its texts name. */
function evaluate(condition: Condition, context: Context): Evaluation {
  const { profile, scan } = context;
  switch (condition.kind) {
    case 'always':
      return { holds: true, values: {} };
    case 'concern':
      return {
        holds: profile.concerns.includes(condition.concern),
        values: { concern: choice('concerns', condition.concern) },
      };
    case 'skinType':
      return {
        holds: condition.among.includes(profile.skinType),
        values: { skinType: choice('skinType', profile.skinType) },
      };
    case 'sensitivity':
      return {
        holds: condition.among.includes(profile.sensitivity),
        values: { sensitivity: choice('sensitivity', profile.sensitivity) },
      };
    case 'sun':
      return {
        holds: condition.among.includes(profile.sunExposure),
        values: { sun: choice('sunExposure', profile.sunExposure) },
      };
    case 'age':
      return { holds: condition.among.includes(profile.ageBand), values: { age: choice('ageBand', profile.ageBand) } };
    case 'uses':
      return {
        holds: profile.currentRoutine.includes(condition.product),
        values: { product: choice('currentRoutine', condition.product) },
      };
    case 'withStep':
      return { holds: context.tags.has(condition.tag), values: {} };
    case 'metric': {
      if (!scan) return { holds: false, values: {} };
      // The most marked of the places: the one the text names.
      let best: { place: Place; value: number } | undefined;
      for (const place of condition.places) {
        const value = scoreAt(scan.analysis, condition.metric, place);
        if (value === undefined) continue;
        if (!best || markedness(condition.metric, value) > markedness(condition.metric, best.value))
          best = { place, value };
      }
      if (!best) return { holds: false, values: {} };
      // The one reading of a level every screen shows: the step answers a score that stands out.
      const level = readLevel(condition.metric, best.place, best.value);
      return {
        holds: level.standsOut,
        values: {
          metric: metricName(condition.metric),
          zone: placeName(best.place),
          value: Math.round(best.value),
          threshold: level.threshold,
          date: dateOf(scan.takenAt),
        },
      };
    }
  }
}

function evaluateAll(conditions: readonly Condition[], context: Context): Evaluation {
  let values: Record<string, TextValue> = {};
  for (const condition of conditions) {
    const evaluation = evaluate(condition, context);
    if (!evaluation.holds) return { holds: false, values };
    values = { ...values, ...evaluation.values };
  }
  return { holds: true, values };
}

const stepOrder = (step: StepDefinition) => STEPS.findIndex((candidate) => candidate.id === step.id);
const byPriority = (a: RoutineEntry, b: RoutineEntry) =>
  b.priority - a.priority || stepOrder(a.step) - stepOrder(b.step);
const byPlace = (a: RoutineEntry, b: RoutineEntry) =>
  STEP_SLOTS.indexOf(a.step.slot) - STEP_SLOTS.indexOf(b.step.slot) || stepOrder(a.step) - stepOrder(b.step);

function select(context: Context): { entries: RoutineEntry[]; leftOut: Map<string, LeftOutEntry> } {
  // 1. The rules that hold, gathered per step: its reasons and its highest priority.
  const candidates = new Map<StepId, { priority: number; reasons: RoutineReason[] }>();
  for (const rule of ROUTINE_RULES) {
    const evaluation = evaluateAll(rule.when, context);
    if (!evaluation.holds) continue;
    const candidate = candidates.get(rule.step) ?? { priority: 0, reasons: [] };
    candidate.priority = Math.max(candidate.priority, rule.priority);
    candidate.reasons.push({ rule: rule.id, key: `routine.reasons.${rule.reason}`, values: evaluation.values });
    candidates.set(rule.step, candidate);
  }
  let entries: RoutineEntry[] = [];
  for (const [id, candidate] of candidates) {
    const step = stepById(id);
    for (const time of step.times) entries.push({ step, time, ...candidate });
  }
  const leftOut = new Map<string, LeftOutEntry>();
  const leave = (entry: RoutineEntry, safety: string, why: TextLine) => {
    if (!leftOut.has(entry.step.id))
      leftOut.set(entry.step.id, { step: entry.step, safety, why, reasons: entry.reasons });
  };
  // 2. Exclusions.
  for (const rule of SAFETY_RULES) {
    if (rule.kind !== 'exclude' || !evaluateAll(rule.when, context).holds) continue;
    entries = entries.filter((entry) => {
      if (!(entry.step.tags as readonly StepTag[]).includes(rule.tag)) return true;
      leave(entry, rule.id, line(`routine.safety.${rule.reason}`));
      return false;
    });
  }
  // 3. One product in each single slot: the highest priority (the others are alternatives, not left out).
  entries = entries.filter(
    (entry) =>
      !SINGLE_SLOTS.includes(entry.step.slot) ||
      entries
        .filter((other) => other.time === entry.time && other.step.slot === entry.step.slot)
        .sort(byPriority)[0] === entry,
  );
  // 4. Limits, per routine: the highest priorities stay.
  for (const rule of SAFETY_RULES) {
    if (rule.kind !== 'limit' || !evaluateAll(rule.when, context).holds) continue;
    for (const time of ROUTINE_TIMES) {
      const tagged = entries
        .filter((entry) => entry.time === time && (entry.step.tags as readonly StepTag[]).includes(rule.tag))
        .sort(byPriority);
      const kept = tagged.slice(0, rule.max);
      for (const entry of tagged.slice(rule.max)) {
        leave(
          entry,
          rule.id,
          line(`routine.safety.${rule.reason}`, { kept: { list: kept.map((other) => stepName(other.step.id)) } }),
        );
        entries = entries.filter((other) => other !== entry);
      }
    }
  }
  return { entries, leftOut };
}

/** The routine for this profile and these scans (the newest is the one read). */
export function buildRoutine(profile: ConsultationProfile, scans: readonly ScanResult[]): Routine {
  const scan = latestScan(scans);
  // Rules that depend on other steps (`withStep`) read the routine the others make.
  const first = select({ profile, scan, tags: new Set() });
  const tags = new Set(first.entries.flatMap((entry) => entry.step.tags as readonly StepTag[]));
  const { entries, leftOut } = select({ profile, scan, tags });
  const kept = new Set(entries.map((entry) => entry.step.id));
  return {
    basis: { scanId: scan?.id ?? null, scanTakenAt: scan?.takenAt ?? null, profileUpdatedAt: profile.updatedAt },
    morning: entries.filter((entry) => entry.time === 'morning').sort(byPlace),
    evening: entries.filter((entry) => entry.time === 'evening').sort(byPlace),
    leftOut: [...leftOut.values()].filter((entry) => !kept.has(entry.step.id)),
  };
}

/** The steps of a routine put there by a rule that `matches` (one about a concern, or a metric). */
export function stepsFor(routine: Routine, matches: (rule: RoutineRule) => boolean): RoutineEntry[] {
  const seen = new Set<string>();
  return [...routine.morning, ...routine.evening].filter((entry) => {
    if (seen.has(entry.step.id)) return false;
    const answers = entry.reasons.some((reason) => {
      const rule = ROUTINE_RULES.find((candidate) => candidate.id === reason.rule);
      return rule !== undefined && matches(rule);
    });
    if (answers) seen.add(entry.step.id);
    return answers;
  });
}

// ---------- What changed ----------

/** What is kept of a routine once shown, to say later what changed (step ids, never the results). */
export interface RoutineSnapshot {
  readonly rulesVersion: number;
  readonly basis: RoutineBasis;
  readonly entries: readonly { readonly step: string; readonly time: RoutineTime; readonly rules: readonly string[] }[];
}

export function snapshotOf(routine: Routine): RoutineSnapshot {
  return {
    rulesVersion: ROUTINE_RULES_VERSION,
    basis: routine.basis,
    entries: [...routine.morning, ...routine.evening].map((entry) => ({
      step: entry.step.id,
      time: entry.time,
      rules: entry.reasons.map((reason) => reason.rule),
    })),
  };
}

export function sameBasis(a: RoutineBasis, b: RoutineBasis): boolean {
  return a.scanId === b.scanId && a.profileUpdatedAt === b.profileUpdatedAt;
}

export interface RemovedStep {
  readonly step: StepDefinition;
  readonly time: RoutineTime;
  /** Why it is no longer there: a safety rule, a replacement, or the conditions that no longer hold. */
  readonly why: readonly TextLine[];
}

export interface RoutineChanges {
  /** The routine compared with. */
  readonly since: RoutineBasis;
  readonly newScan: boolean;
  readonly newAnswers: boolean;
  readonly added: readonly RoutineEntry[];
  readonly removed: readonly RemovedStep[];
}

/** The text saying that a condition no longer holds, with today's values. */
function noLonger(condition: Condition, context: Context): TextLine {
  const { values } = evaluate(condition, context);
  if (condition.kind === 'metric') {
    return context.scan && values.value !== undefined
      ? line('routine.changes.noLonger.metric', values)
      : line('routine.changes.noLonger.noScan', { metric: metricName(condition.metric) });
  }
  return line(`routine.changes.noLonger.${condition.kind}`, values);
}

/**
 * What changed from the routine `before` (shown earlier, or computed from the previous scan) to
 * `after`, with the reasons: added steps carry their own; a removed step says which safety rule took
 * it out, which step replaced it, or which of its conditions no longer holds. Undefined when `before`
 * was made by other rules (the difference would be ours, not the visitor's).
 */
export function routineChanges(
  before: RoutineSnapshot,
  after: Routine,
  profile: ConsultationProfile,
  scans: readonly ScanResult[],
): RoutineChanges | undefined {
  if (before.rulesVersion !== ROUTINE_RULES_VERSION) return undefined;
  const context: Context = {
    profile,
    scan: latestScan(scans),
    tags: new Set([...after.morning, ...after.evening].flatMap((entry) => entry.step.tags as readonly StepTag[])),
  };
  const now = [...after.morning, ...after.evening];
  const had = (entry: RoutineEntry) =>
    before.entries.some((old) => old.step === entry.step.id && old.time === entry.time);
  const removed: RemovedStep[] = [];
  for (const old of before.entries) {
    if (now.some((entry) => entry.step.id === old.step && entry.time === old.time)) continue;
    const step = STEPS.find((candidate) => candidate.id === old.step);
    if (!step) continue;
    removed.push({ step, time: old.time, why: whyRemoved(step, old.time, old.rules, after, context) });
  }
  return {
    since: before.basis,
    newScan: before.basis.scanId !== after.basis.scanId,
    newAnswers: before.basis.profileUpdatedAt !== after.basis.profileUpdatedAt,
    added: now.filter((entry) => !had(entry)),
    removed,
  };
}

function whyRemoved(
  step: StepDefinition,
  time: RoutineTime,
  rules: readonly string[],
  after: Routine,
  context: Context,
): TextLine[] {
  const leftOut = after.leftOut.find((entry) => entry.step.id === step.id);
  if (leftOut) return [leftOut.why];
  if (SINGLE_SLOTS.includes(step.slot)) {
    const replacement = (time === 'morning' ? after.morning : after.evening).find(
      (entry) => entry.step.slot === step.slot,
    );
    if (replacement) return [line('routine.changes.replacedBy', { step: stepName(replacement.step.id) })];
  }
  const lines: TextLine[] = [];
  const said = new Set<string>();
  for (const id of rules) {
    const rule = ROUTINE_RULES.find((candidate) => candidate.id === id);
    const failing = rule?.when.find((condition) => !evaluate(condition, context).holds);
    if (!failing) continue;
    const text = noLonger(failing, context);
    const signature = JSON.stringify(text);
    if (!said.has(signature)) lines.push(text);
    said.add(signature);
  }
  return lines.length > 0 ? lines : [line('routine.changes.noLongerSelected')];
}

/** The routine as it was before the newest scan: what the journal's last change is compared with. */
export function routineBeforeLatestScan(
  profile: ConsultationProfile,
  scans: readonly ScanResult[],
): Routine | undefined {
  const [newest, ...older] = [...scans].sort((a, b) => b.takenAt.localeCompare(a.takenAt));
  return newest && older.length > 0 ? buildRoutine(profile, older) : undefined;
}
