import { Link } from 'react-router';
import type { Score } from '@skanova/shared/studio/scan-results';
import { STUDIO_CONSULTATION_PAGE, STUDIO_ROUTINE_PAGE } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../lib/react-i18n';
import { dateFormat } from './journal/journal-format';
import { WhyNoRealChange } from './reading-words';
import type { Since, Takeaways, Today } from './takeaways';

// The result's "In short" (takeaways.ts): at most three lines — today, since the last scan taken
// alike, next — in plain words, before any score. Colour only for a change beyond the floor.

type Translate = (key: string, options?: Record<string, unknown>) => string;

const place = (t: Translate, where: string) => t(where === 'overall' ? 'consultation.wholeFace' : `zones.${where}`);

function standout(t: Translate, score: Score): string {
  return t(`result.takeaways.standout.${score.metric}`, {
    zone: place(t, score.place),
    value: Math.round(score.value),
  });
}

function todayLine(t: Translate, today: Today): string {
  const [first, second] = today.standouts;
  if (!first) return t('result.takeaways.today.none');
  if (!second) return t('result.takeaways.today.one', { first: standout(t, first) });
  // The same metric in a second zone is not named twice: "redness on your chin (40/100) and on your nose (35/100)".
  const values = {
    first: standout(t, first),
    second:
      second.metric === first.metric
        ? t('result.takeaways.alsoOn', { zone: place(t, second.place), value: Math.round(second.value) })
        : standout(t, second),
  };
  return today.more === 0
    ? t('result.takeaways.today.two', values)
    : t('result.takeaways.today.more', { ...values, count: today.more });
}

function SinceLine({ since }: { since: Since }) {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  if (since.kind === 'first') return <p>{t('result.takeaways.since.first')}</p>;
  if (since.kind === 'otherVersion') return <p>{t('result.takeaways.since.otherVersion')}</p>;
  const date = dateFormat(lang, { dateStyle: 'long' }).format(new Date(since.takenAt));
  if (since.kind === 'notAlike') {
    const what = new Intl.ListFormat(lang, { type: 'conjunction' }).format(
      since.differences.map((difference) => t(`result.takeaways.differs.${difference}`)),
    );
    return <p>{t('result.takeaways.since.notAlike', { date, what })}</p>;
  }
  if (since.named.length === 0)
    return (
      <>
        <p>{t('result.takeaways.since.none', { date })}</p>
        <WhyNoRealChange />
      </>
    );
  return (
    <>
      <p>{t('result.takeaways.since.changed', { date })}</p>
      <ul className="studio-takeaways__changes">
        {since.named.map((reading) => (
          <li key={`${reading.change.place}/${reading.change.metric}`}>
            {t('result.takeaways.since.change', {
              movement: t(reading.movementKey!),
              place: place(t, reading.change.place),
            })}{' '}
            <span className={`badge journal-verdict journal-verdict--${reading.tone ?? reading.kind}`}>
              {t(reading.key)}
            </span>
          </li>
        ))}
      </ul>
      {since.more > 0 ? (
        <p className="studio-muted">{t('result.takeaways.since.more', { count: since.more })}</p>
      ) : null}
      <WhyNoRealChange />
    </>
  );
}

function NextLine({ found }: { found: Takeaways }) {
  const { t, i18n } = useTranslation('studio');
  const { next } = found;
  if (next.kind === 'questionnaire')
    return (
      <>
        <p>{t(next.metric ? 'result.takeaways.next.questionnaireFor' : 'result.takeaways.next.questionnaire')}</p>
        <Link to={STUDIO_CONSULTATION_PAGE} className="button button--secondary button--small">
          {t('result.takeaways.next.toQuestionnaire')}
        </Link>
      </>
    );
  const steps = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const text = !next.metric
    ? t('result.takeaways.next.basics')
    : next.steps.length === 0
      ? t('result.takeaways.next.noStep')
      : t('result.takeaways.next.steps', {
          steps: steps.format(next.steps.map((step) => t(`routine.steps.${step}.inline`))),
        });
  return (
    <>
      <p>{text}</p>
      <Link to={STUDIO_ROUTINE_PAGE} className="button button--secondary button--small">
        {t('result.takeaways.next.toRoutine')}
      </Link>
    </>
  );
}

/** "In short": today, since, next. The last two wait for the device's history (a moment). */
export function ResultTakeaways({ found, ready }: { found: Takeaways; ready: boolean }) {
  const { t } = useTranslation('studio');
  return (
    <section className="studio-card studio-takeaways" aria-labelledby="takeaways-title">
      <h2 id="takeaways-title">{t('result.takeaways.title')}</h2>
      <ol className="studio-takeaways__list">
        <li className="studio-takeaway">
          <p>{todayLine(t, found.today)}</p>
        </li>
        {ready ? (
          <>
            <li className="studio-takeaway">
              <SinceLine since={found.since} />
            </li>
            <li className="studio-takeaway">
              <NextLine found={found} />
            </li>
          </>
        ) : null}
      </ol>
    </section>
  );
}
