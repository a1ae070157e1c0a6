import { useId, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { weeklyReminderIcs } from '@skanova/shared/studio/reminder-ics';
import { downloadBlob } from '../../../lib/download';
import { useTranslation } from '../../../lib/react-i18n';
import { siteConfig } from '../../../lib/site-config';
import { studioStore } from '../storage';
import { formatCalendarDate, formatScanDate, formatWeekday, visitorTimeZone } from './journal-format';
import {
  type CalendarDate,
  DEFAULT_REMINDER_TIME,
  type ReminderTime,
  firstReminder,
  localMoment,
  nextScanDue,
} from './journal-model';

// The next weekly scan's day, and a calendar file that reminds the visitor every week: made here from
// the visitor's time zone and language, downloaded from a Blob — no server, no push service.

/** The event's length in the calendar. */
const REMINDER_MINUTES = 15;

/** "heure normale d'Europe centrale" / "Central European Time", or the zone's identifier. */
function zoneName(timeZone: string, lang: string): string {
  try {
    const part = new Intl.DateTimeFormat(lang, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(new Date())
      .find((entry) => entry.type === 'timeZoneName');
    return part ? `${part.value}, ${timeZone}` : timeZone;
  } catch {
    return timeZone;
  }
}

function parseTime(value: string): ReminderTime | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [hour, minute] = [Number(match[1]), Number(match[2])];
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

const timeValue = (time: ReminderTime) =>
  `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;

function formatTime(time: ReminderTime, lang: string): string {
  return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, 0, 1, time.hour, time.minute)),
  );
}

/** The same event every time the visitor downloads it on this device (a calendar updates it rather than adding another). */
function reminderUid(consentGivenAt: string | undefined): string {
  const seed = consentGivenAt ? new Date(consentGivenAt).getTime().toString(36) : Date.now().toString(36);
  return `weekly-scan-${seed}@${window.location.hostname}`;
}

export function NextScan({ latestTakenAt }: { latestTakenAt: string }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const timeId = useId();
  const [timeText, setTimeText] = useState(timeValue(DEFAULT_REMINDER_TIME));
  const [downloaded, setDownloaded] = useState(false);

  const now = new Date();
  const timeZone = visitorTimeZone();
  const next = nextScanDue(latestTakenAt, now, timeZone);
  const time = parseTime(timeText) ?? DEFAULT_REMINDER_TIME;
  const first: CalendarDate = firstReminder(next, localMoment(now, timeZone).minutes, time);
  const withYear = first.year !== next.today.year;

  async function download() {
    const consent = await studioStore()
      .consent()
      .catch(() => undefined);
    const text = weeklyReminderIcs({
      uid: reminderUid(consent?.givenAt),
      createdAt: new Date(),
      start: { ...first, ...time },
      timeZone,
      durationMinutes: REMINDER_MINUTES,
      language: lang,
      summary: t('journal.reminder.eventTitle'),
      description: t('journal.reminder.eventText', { url: `${window.location.origin}${STUDIO_SCAN_PAGE}` }),
      url: `${window.location.origin}${STUDIO_SCAN_PAGE}`,
      productId: `-//${siteConfig.brandName}//Studio//${lang.toUpperCase()}`,
    });
    downloadBlob(new Blob([text], { type: 'text/calendar;charset=utf-8' }), `${t('journal.reminder.fileName')}.ics`);
    setDownloaded(true);
  }

  return (
    <section className="studio-card journal-next" aria-labelledby="journal-next-title">
      <h2 id="journal-next-title">{t('journal.next.title')}</h2>
      <p className={`journal-due journal-due--${next.status}`}>
        {next.status === 'today'
          ? t('journal.next.today')
          : t(`journal.next.${next.status}`, {
              count: next.days,
              date: formatCalendarDate(next.due, lang, next.due.year !== next.today.year),
            })}
      </p>
      <p className="studio-muted">
        {t('journal.next.latest', { date: formatScanDate(latestTakenAt, lang) })} {t('journal.next.why')}
      </p>
      <Link to={STUDIO_SCAN_PAGE} className="button button--primary">
        {t('journal.next.newScan')}
      </Link>

      <div className="journal-reminder">
        <h3>{t('journal.reminder.title')}</h3>
        <div className="journal-reminder__row">
          <div className="form-field journal-reminder__time">
            <label htmlFor={timeId}>{t('journal.reminder.timeLabel')}</label>
            <input
              id={timeId}
              type="time"
              value={timeText}
              required
              aria-describedby={`${timeId}-hint`}
              onChange={(event) => {
                setTimeText(event.target.value);
                setDownloaded(false);
              }}
            />
          </div>
          <button type="button" className="button button--secondary" onClick={() => void download()}>
            {t('journal.reminder.add')}
          </button>
        </div>
        <p id={`${timeId}-hint`} className="studio-muted">
          {t('journal.reminder.hint', {
            weekday: formatWeekday(first, lang),
            time: formatTime(time, lang),
            zone: zoneName(timeZone, lang),
            date: formatCalendarDate(first, lang, withYear),
          })}
        </p>
        <div role="status">
          {downloaded ? <p className="form-success journal-reminder__done">{t('journal.reminder.done')}</p> : null}
        </div>
      </div>
    </section>
  );
}
