// The web app's weekly scan reminder as an iCalendar file (RFC 5545), made on the visitor's device and
// downloaded from a Blob: nothing is sent anywhere and no push service is needed. The event repeats
// every week at the same wall-clock time in the visitor's own time zone, which the file describes in a
// VTIMEZONE built from the browser's time zone data (Intl): a weekly event written in UTC would move
// by an hour at each daylight-saving change.

/** A wall-clock moment in some time zone (month 1–12). */
export interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

export interface WeeklyReminder {
  /** Unique and stable for this event: a calendar that imports the file twice updates one event. */
  readonly uid: string;
  /** When the file is made (DTSTAMP). */
  readonly createdAt: Date;
  /** The first reminder, in `timeZone`'s wall-clock time; it then repeats on that weekday. */
  readonly start: LocalDateTime;
  /** The visitor's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
  readonly timeZone: string;
  readonly durationMinutes: number;
  /** The language of the texts (BCP 47, e.g. "fr"), declared on each of them. */
  readonly language: string;
  readonly summary: string;
  readonly description: string;
  /** The page the reminder opens. */
  readonly url?: string;
  /** PRODID: who made the file. */
  readonly productId: string;
}

/** RFC 5545 §3.1: content lines end with CRLF. */
const CRLF = '\r\n';
/** RFC 5545 §3.1: lines longer than this many octets are folded. */
const MAX_LINE_OCTETS = 75;
/** Years of time zone transitions read to describe the zone (from the year before the first reminder). */
const ZONE_YEARS = 8;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

/** TEXT values (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, line breaks as \n. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line (RFC 5545 §3.1): no line longer than 75 octets of UTF-8, each continuation
 * starting with one space; a multi-byte character is never split.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; a continuation's leading space takes one of its 75.
    const limit = parts.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** 20261202T090000 (a DATE-TIME's local form). */
function formatLocal(moment: LocalDateTime & { second?: number }): string {
  return `${pad(moment.year, 4)}${pad(moment.month)}${pad(moment.day)}T${pad(moment.hour)}${pad(moment.minute)}${pad(moment.second ?? 0)}`;
}

/** 20261125T101500Z (UTC). */
function formatUtc(date: Date): string {
  return `${formatLocal({
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  })}Z`;
}

/** +0100, -0430 (UTC-OFFSET, RFC 5545 §3.3.14). */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The offset from UTC, in minutes, of `timeZone` at `instant` (from the runtime's time zone data). */
export function timeZoneOffsetMinutes(timeZone: string, instant: number): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  // The instant's own seconds are dropped on both sides: offsets are whole minutes.
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MINUTE_MS);
}

/** UTC and its aliases: no VTIMEZONE, times written in UTC (no daylight saving to follow). */
function isUtc(timeZone: string): boolean {
  return /^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)(0|\+0|-0)?$/i.test(timeZone);
}

export interface ZoneTransition {
  /** The first instant (UTC ms) of the new offset. */
  readonly at: number;
  readonly from: number;
  readonly to: number;
}

/** Every offset change of `timeZone` in [from, to), to the minute (zones change at most once a day). */
export function zoneTransitions(timeZone: string, from: number, to: number): ZoneTransition[] {
  const transitions: ZoneTransition[] = [];
  let before = from;
  let offset = timeZoneOffsetMinutes(timeZone, before);
  for (let probe = from + DAY_MS; probe < to + DAY_MS; probe += DAY_MS) {
    const at = Math.min(probe, to);
    const next = timeZoneOffsetMinutes(timeZone, at);
    if (next !== offset) {
      // Between two whole minutes: the last of the old offset and the first of the new one.
      let low = Math.floor(before / MINUTE_MS);
      let high = Math.ceil(at / MINUTE_MS);
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (timeZoneOffsetMinutes(timeZone, middle * MINUTE_MS) === offset) low = middle;
        else high = middle;
      }
      transitions.push({ at: high * MINUTE_MS, from: offset, to: next });
      offset = next;
    }
    before = at;
  }
  return transitions;
}

/** The local wall-clock moment just before a transition (an observance's DTSTART is in its TZOFFSETFROM). */
function wallBefore(transition: ZoneTransition): Date {
  return new Date(transition.at + transition.from * MINUTE_MS);
}

/**
 * The yearly rule that gives every transition of the list (same month, weekday and time: the last or
 * the n-th such weekday of the month, or the same date), or undefined when none does.
 */
export function yearlyRule(transitions: readonly ZoneTransition[]): string | undefined {
  const walls = transitions.map(wallBefore);
  const first = walls[0];
  if (!first || walls.length < 2) return undefined;
  const years = walls.map((wall) => wall.getUTCFullYear());
  if (years.some((year, index) => index > 0 && year !== years[index - 1]! + 1)) return undefined;
  const same = (read: (wall: Date) => number) => walls.every((wall) => read(wall) === read(first));
  if (!same((wall) => wall.getUTCMonth()) || !same((wall) => wall.getUTCHours() * 60 + wall.getUTCMinutes()))
    return undefined;
  const month = first.getUTCMonth() + 1;
  if (same((wall) => wall.getUTCDay())) {
    const weekday = WEEKDAYS[first.getUTCDay()]!;
    const daysInMonth = (wall: Date) =>
      new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 0)).getUTCDate();
    if (walls.every((wall) => wall.getUTCDate() + 7 > daysInMonth(wall)))
      return `FREQ=YEARLY;BYMONTH=${month};BYDAY=-1${weekday}`;
    const nth = Math.ceil(first.getUTCDate() / 7);
    if (walls.every((wall) => Math.ceil(wall.getUTCDate() / 7) === nth))
      return `FREQ=YEARLY;BYMONTH=${month};BYDAY=${nth}${weekday}`;
  }
  if (same((wall) => wall.getUTCDate())) return `FREQ=YEARLY;BYMONTH=${month};BYMONTHDAY=${first.getUTCDate()}`;
  return undefined;
}

function observance(kind: 'STANDARD' | 'DAYLIGHT', transition: ZoneTransition, rule?: string): string[] {
  const wall = wallBefore(transition);
  return [
    `BEGIN:${kind}`,
    `DTSTART:${formatLocal({
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
    })}`,
    `TZOFFSETFROM:${formatOffset(transition.from)}`,
    `TZOFFSETTO:${formatOffset(transition.to)}`,
    ...(rule ? [`RRULE:${rule}`] : []),
    `END:${kind}`,
  ];
}

/**
 * A VTIMEZONE for `timeZone` (RFC 5545 §3.6.5) from `ZONE_YEARS` years of its transitions from
 * `fromYear`: each kind of change as a yearly rule when one rule gives all of them (most zones), else
 * each change on its own (zones whose rules change, or follow another calendar); a zone without
 * changes as one STANDARD observance.
 */
export function vtimezone(timeZone: string, fromYear: number): string[] {
  const from = Date.UTC(fromYear, 0, 1);
  const transitions = zoneTransitions(timeZone, from, Date.UTC(fromYear + ZONE_YEARS, 0, 1));
  const body: string[] = [];
  if (transitions.length === 0) {
    const offset = timeZoneOffsetMinutes(timeZone, from);
    body.push(...observance('STANDARD', { at: Date.UTC(1970, 0, 1) - offset * MINUTE_MS, from: offset, to: offset }));
  } else {
    // Two kinds of change a year (into and out of daylight time) in most zones; daylight is the larger offset.
    const kinds = new Map<string, ZoneTransition[]>();
    for (const transition of transitions) {
      const key = `${transition.from}>${transition.to}`;
      kinds.set(key, [...(kinds.get(key) ?? []), transition]);
    }
    const groups = [...kinds.values()];
    const rules = groups.map(yearlyRule);
    const ruled = groups.length === 2 && rules.every((rule) => rule !== undefined);
    const kindOf = (transition: ZoneTransition): 'STANDARD' | 'DAYLIGHT' =>
      transition.to > transition.from ? 'DAYLIGHT' : 'STANDARD';
    if (ruled) groups.forEach((group, index) => body.push(...observance(kindOf(group[0]!), group[0]!, rules[index])));
    else for (const transition of transitions) body.push(...observance(kindOf(transition), transition));
  }
  return ['BEGIN:VTIMEZONE', `TZID:${timeZone}`, ...body, 'END:VTIMEZONE'];
}

/** The weekly reminder as an .ics file's text: CRLF lines, folded at 75 octets. */
export function weeklyReminderIcs(reminder: WeeklyReminder): string {
  const { start, timeZone } = reminder;
  const utc = isUtc(timeZone);
  const weekday = WEEKDAYS[new Date(Date.UTC(start.year, start.month - 1, start.day)).getUTCDay()]!;
  const lang = `LANGUAGE=${reminder.language}`;
  const dtstart = utc ? `DTSTART:${formatLocal(start)}Z` : `DTSTART;TZID=${timeZone}:${formatLocal(start)}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${reminder.productId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...(utc ? [] : vtimezone(timeZone, start.year - 1)),
    'BEGIN:VEVENT',
    `UID:${reminder.uid}`,
    `DTSTAMP:${formatUtc(reminder.createdAt)}`,
    dtstart,
    `DURATION:PT${reminder.durationMinutes}M`,
    `RRULE:FREQ=WEEKLY;BYDAY=${weekday}`,
    `SUMMARY;${lang}:${escapeText(reminder.summary)}`,
    `DESCRIPTION;${lang}:${escapeText(reminder.description)}`,
    ...(reminder.url ? [`URL:${reminder.url}`] : []),
    'TRANSP:TRANSPARENT',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'TRIGGER:PT0M',
    `DESCRIPTION;${lang}:${escapeText(reminder.summary)}`,
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
