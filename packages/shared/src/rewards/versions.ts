// Which version of a group's rule applies when (docs/product/money.md#partner-groups-and-reward-rules):
// the latest effective by then — by effective time, then by version, so a version published later for
// the same instant replaces the earlier one. The server prices with the same order in SQL
// (domain/reward-rules.ts); the console labels a group's history with these.

interface Versioned {
  version: number;
  effectiveFrom: string;
}

function later(a: Versioned, b: Versioned): boolean {
  const at = Date.parse(a.effectiveFrom) - Date.parse(b.effectiveFrom);
  return at > 0 || (at === 0 && a.version > b.version);
}

/** The version in force at `at`, or null before the first takes effect. */
export function versionInForce<T extends Versioned>(versions: readonly T[], at: Date): T | null {
  let found: T | null = null;
  for (const version of versions) {
    if (Date.parse(version.effectiveFrom) > at.getTime()) continue;
    if (!found || later(version, found)) found = version;
  }
  return found;
}

/** The next version to take effect after `at`, if one is scheduled. */
export function nextVersion<T extends Versioned>(versions: readonly T[], at: Date): T | null {
  let found: T | null = null;
  for (const version of versions) {
    const starts = Date.parse(version.effectiveFrom);
    if (starts <= at.getTime()) continue;
    const foundStarts = found ? Date.parse(found.effectiveFrom) : Infinity;
    if (starts < foundStarts || (starts === foundStarts && found && version.version > found.version)) found = version;
  }
  return found;
}

/** Where a version stands at `at`: in force, scheduled, or replaced by a later one. */
export function versionStanding(
  versions: readonly Versioned[],
  version: Versioned,
  at: Date,
): 'current' | 'upcoming' | 'past' {
  if (versionInForce(versions, at)?.version === version.version) return 'current';
  return Date.parse(version.effectiveFrom) > at.getTime() ? 'upcoming' : 'past';
}
