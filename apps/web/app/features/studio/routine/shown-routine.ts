import { ROUTINE_TIMES } from '@skanova/shared/studio/routine-rules';
import { SHOWN_ROUTINE_KEY } from '../storage';
import { type Routine, type RoutineSnapshot, sameBasis, snapshotOf } from '@skanova/shared/studio/routines';

// "What changed" in the routine needs the routine the visitor saw before. The previous answers are not
// kept (the profile is one record), so the routine page keeps, on this device, the step ids of the
// routine it last showed and of the one before it — never a score or an answer — in localStorage.
// Withdrawing consent deletes it with the database; the record is also tied to the consent it was
// written under, so a record from before a new consent (another tab's, say) is ignored and replaced.

interface ShownRoutines {
  /** The consent (its moment) the record was written under. */
  consent: string;
  current: RoutineSnapshot;
  /** What `current` replaced: the routine "what changed" compares with while `current` is shown. */
  previous?: RoutineSnapshot;
}

function isSnapshot(value: unknown): value is RoutineSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const { rulesVersion, basis, entries } = value as Partial<RoutineSnapshot>;
  return (
    typeof rulesVersion === 'number' &&
    typeof basis === 'object' &&
    basis !== null &&
    (typeof basis.scanId === 'string' || basis.scanId === null) &&
    (typeof basis.scanTakenAt === 'string' || basis.scanTakenAt === null) &&
    typeof basis.profileUpdatedAt === 'string' &&
    Array.isArray(entries) &&
    entries.every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as { step?: unknown }).step === 'string' &&
        (ROUTINE_TIMES as readonly unknown[]).includes((entry as { time?: unknown }).time) &&
        Array.isArray((entry as { rules?: unknown }).rules) &&
        (entry as { rules: unknown[] }).rules.every((rule) => typeof rule === 'string'),
    )
  );
}

export function parseShown(raw: string | null): ShownRoutines | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<ShownRoutines>;
    if (typeof value.consent !== 'string' || !isSnapshot(value.current)) return undefined;
    if (value.previous !== undefined && !isSnapshot(value.previous)) return undefined;
    return { consent: value.consent, current: value.current, previous: value.previous };
  } catch {
    return undefined;
  }
}

/**
 * The routine to compare `routine` with, and the record to keep: the routine shown before this one —
 * the last one shown when this one is new (its basis differs: a new scan or new answers), or the one
 * that last one replaced when it is this one again (a reload keeps saying what changed).
 */
export function reconcile(
  stored: ShownRoutines | undefined,
  routine: Routine,
  consent: string,
): { baseline: RoutineSnapshot | undefined; store: ShownRoutines } {
  const current = snapshotOf(routine);
  if (!stored || stored.consent !== consent) return { baseline: undefined, store: { consent, current } };
  if (sameBasis(stored.current.basis, routine.basis))
    return { baseline: stored.previous, store: { consent, current, previous: stored.previous } };
  return { baseline: stored.current, store: { consent, current, previous: stored.current } };
}

/** Reads the record, reconciles it with the routine shown now and writes it back (when the browser lets it). */
export function rememberShown(routine: Routine, consent: string): RoutineSnapshot | undefined {
  let storage: Storage;
  try {
    storage = window.localStorage;
  } catch {
    return undefined;
  }
  const { baseline, store } = reconcile(parseShown(storage.getItem(SHOWN_ROUTINE_KEY)), routine, consent);
  try {
    storage.setItem(SHOWN_ROUTINE_KEY, JSON.stringify(store));
  } catch {
    // Storage full or refused: "what changed" falls back to the previous scan.
  }
  return baseline;
}
