import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  type WeeklyReminder,
  escapeText,
  foldLine,
  timeZoneOffsetMinutes,
  vtimezone,
  weeklyReminderIcs,
  yearlyRule,
  zoneTransitions,
} from './reminder-ics';

// The weekly reminder file is read back with ical.js (a maintained RFC 5545 parser): every occurrence
// of the weekly rule must fall on the same weekday at the same wall-clock time in the visitor's zone,
// across daylight-saving changes, as the runtime's own time zone data says.

function reminder(overrides: Partial<WeeklyReminder> = {}): WeeklyReminder {
  return {
    uid: 'studio-reminder-3f1c@skanova',
    createdAt: new Date('2026-11-25T10:15:30.400Z'),
    start: { year: 2026, month: 12, day: 2, hour: 9, minute: 0 },
    timeZone: 'Europe/Paris',
    durationMinutes: 15,
    language: 'fr',
    summary: 'Skanova : votre scan de la semaine',
    description: 'Même lumière, même endroit : des résultats comparables.\nOuvrez le Studio.',
    url: 'https://skanova.example/studio/scan',
    productId: '-//Skanova//Studio//FR',
    ...overrides,
  };
}

/** The calendar's event as a calendar application reads it (its time zones registered from the file). */
function readEvent(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

/** The first `count` occurrences as UTC instants. */
function occurrences(text: string, count: number): Date[] {
  const iterator = readEvent(text).event.iterator();
  const dates: Date[] = [];
  for (let index = 0; index < count; index++) {
    const next = iterator.next();
    if (!next) break;
    dates.push(next.toJSDate());
  }
  return dates;
}

/** An instant's weekday and wall-clock time in a zone, as the runtime sees it. */
function wallClock(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

describe('the weekly reminder file', () => {
  it('is one VCALENDAR with one VEVENT: UID, DTSTAMP in UTC, a weekly rule, texts in the visitor language', () => {
    const text = weeklyReminderIcs(reminder());
    const { calendar, vevent, event } = readEvent(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Skanova//Studio//FR');
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(1);
    expect(event.uid).toBe('studio-reminder-3f1c@skanova');
    expect(text).toContain('\r\nDTSTAMP:20261125T101530Z\r\n');
    const rule = vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rule.freq).toBe('WEEKLY');
    expect(rule.parts.BYDAY).toEqual(['WE']);
    expect(rule.count).toBeFalsy();
    expect(rule.until).toBeFalsy();
    expect(event.summary).toBe('Skanova : votre scan de la semaine');
    expect(event.description).toBe('Même lumière, même endroit : des résultats comparables.\nOuvrez le Studio.');
    expect(vevent.getFirstProperty('summary')?.getParameter('language')).toBe('fr');
    expect(vevent.getFirstPropertyValue('url')).toBe('https://skanova.example/studio/scan');
    expect(event.duration.toSeconds()).toBe(15 * 60);
    expect(event.startDate.zone?.tzid).toBe('Europe/Paris');
    expect(vevent.getFirstSubcomponent('valarm')?.getFirstPropertyValue('action')).toBe('DISPLAY');
  });

  it('ends every line with CRLF and folds none longer than 75 octets, never inside a character', () => {
    const text = weeklyReminderIcs(
      reminder({ summary: 'Rappel hebdomadaire — é'.repeat(12), description: '😀 emoji '.repeat(30) }),
    );
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    // Unfolding gives the texts back whole (no broken UTF-8 sequence).
    expect(readEvent(text).event.description).toBe('😀 emoji '.repeat(30));
    expect(readEvent(text).event.summary).toBe('Rappel hebdomadaire — é'.repeat(12));
  });

  it('repeats at 09:00 on Wednesdays in Paris, summer and winter alike', () => {
    const dates = occurrences(weeklyReminderIcs(reminder()), 60);
    expect(dates).toHaveLength(60);
    expect(dates[0]!.toISOString()).toBe('2026-12-02T08:00:00.000Z');
    for (const date of dates) expect(wallClock(date, 'Europe/Paris')).toBe('Wed 09:00');
    // A week apart in local time: 7 days, except across a change of offset (an hour less or more).
    const gaps = dates.slice(1).map((date, index) => (date.getTime() - dates[index]!.getTime()) / 3_600_000);
    expect(new Set(gaps)).toEqual(new Set([168, 167, 169]));
    // After the spring change (last Sunday of March 2027) 09:00 is 07:00 UTC.
    expect(dates.find((date) => date > new Date('2027-03-28T12:00:00Z'))!.toISOString()).toBe(
      '2027-03-31T07:00:00.000Z',
    );
  });

  const ZONES = [
    // Northern and southern hemispheres, half-hour offsets and DST steps, a zone whose daylight time
    // starts at midnight, zones without daylight saving, and one whose changes follow no yearly rule.
    'America/New_York',
    'Europe/London',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/Santiago',
    'Asia/Kolkata',
    'America/Sao_Paulo',
    'Asia/Tokyo',
    'Africa/Casablanca',
  ];
  for (const timeZone of ZONES) {
    it(`keeps the same weekday and time for a year in ${timeZone}`, () => {
      const text = weeklyReminderIcs(
        reminder({ timeZone, start: { year: 2027, month: 1, day: 18, hour: 8, minute: 30 } }),
      );
      expect(text).toContain(`DTSTART;TZID=${timeZone}:20270118T083000`);
      const dates = occurrences(text, 70);
      expect(dates).toHaveLength(70);
      for (const date of dates) expect(wallClock(date, timeZone)).toBe('Mon 08:30');
    });
  }

  it('writes a UTC visitor time in UTC, without a VTIMEZONE', () => {
    const text = weeklyReminderIcs(reminder({ timeZone: 'UTC' }));
    expect(text).not.toContain('VTIMEZONE');
    expect(text).toContain('\r\nDTSTART:20261202T090000Z\r\n');
    for (const date of occurrences(text, 10)) expect(wallClock(date, 'UTC')).toBe('Wed 09:00');
  });
});

describe('the time zone description', () => {
  it('describes Paris by its two yearly rules (last Sunday of March and of October)', () => {
    const lines = vtimezone('Europe/Paris', 2025);
    expect(lines).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Paris',
      'BEGIN:DAYLIGHT',
      'DTSTART:20250330T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20251026T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('uses the n-th weekday rule where the change is not on the last one (New York: 2nd Sunday of March)', () => {
    const lines = vtimezone('America/New_York', 2025);
    expect(lines).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU');
    expect(lines).toContain('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU');
  });

  it('describes a zone without changes as one standard offset', () => {
    expect(vtimezone('Asia/Kolkata', 2025)).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Asia/Kolkata',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0530',
      'TZOFFSETTO:+0530',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('lists each change when no yearly rule gives them', () => {
    const lines = vtimezone('Africa/Casablanca', 2025);
    expect(lines.some((line) => line.startsWith('RRULE'))).toBe(false);
    expect(lines.filter((line) => line.startsWith('DTSTART')).length).toBeGreaterThan(8);
  });

  it('finds each transition to the minute', () => {
    const [spring, autumn] = zoneTransitions('Europe/Paris', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    expect(spring).toEqual({ at: Date.UTC(2026, 2, 29, 1), from: 60, to: 120 });
    expect(autumn).toEqual({ at: Date.UTC(2026, 9, 25, 1), from: 120, to: 60 });
    expect(timeZoneOffsetMinutes('Pacific/Chatham', Date.UTC(2026, 6, 1))).toBe(12 * 60 + 45);
  });

  it('finds no yearly rule for changes in different months or on irregular days', () => {
    const changes = [
      { at: Date.UTC(2025, 2, 30, 1), from: 60, to: 120 },
      { at: Date.UTC(2026, 3, 29, 1), from: 60, to: 120 },
    ];
    expect(yearlyRule(changes)).toBeUndefined();
    expect(yearlyRule(changes.slice(0, 1))).toBeUndefined();
  });
});

describe('text values', () => {
  it('escapes backslashes, semicolons, commas and line breaks', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('leaves a short line whole and folds a long one with a leading space', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const folded = foldLine(`DESCRIPTION:${'x'.repeat(100)}`);
    expect(folded.split('\r\n').map((line) => line.length)).toEqual([75, 38]);
    expect(folded.split('\r\n')[1]!.startsWith(' ')).toBe(true);
  });
});
