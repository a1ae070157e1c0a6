import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_CONSULTATION_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { fastChangePrompt } from '@skanova/shared/studio/consultation';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import type { RoutineTime } from '@skanova/shared/studio/routine-rules';
import type { TextLine } from '@skanova/shared/studio/text';
import {
  type Routine,
  type RoutineChanges,
  type RoutineEntry,
  buildRoutine,
  routineBeforeLatestScan,
  routineChanges,
  snapshotOf,
} from '@skanova/shared/studio/routines';
import { type ScanResult, newestFirst } from '@skanova/shared/studio/scan-results';
import { useTranslation } from '../../../lib/react-i18n';
import { DermatologistNotice } from '../consultation/ask-results';
import { useLineText } from '../consultation/use-line-text';
import { useStudioData } from '../consultation/use-studio-data';
import { useConsent } from '../use-consent';
import { rememberShown } from './shown-routine';
import './routine.css';

/** The morning and evening routine (docs/product/web-app.md#routines), from the profile and the latest scan. */
export default function RoutineView() {
  const { t } = useTranslation('studio');
  const { data } = useStudioData();
  const consent = useConsent();

  if (data.status === 'loading' || consent.status === 'loading')
    return (
      <p className="studio-loading" role="status">
        {t('home.loading')}
      </p>
    );
  if (data.status === 'failed')
    return (
      <p className="form-error" role="alert">
        {t('home.storageError')}
      </p>
    );
  return (
    <>
      <header className="routine-header">
        <h1>{t('routine.title')}</h1>
        <p className="studio-lead">{t('routine.lead')}</p>
      </header>
      {data.profile ? (
        <ProfileRoutine
          profile={data.profile}
          scans={data.scans}
          consent={consent.status === 'given' ? consent.consent.givenAt : ''}
        />
      ) : (
        <div className="form-info routine-no-profile">
          <p>{t('routine.noProfile')}</p>
          <Link to={STUDIO_CONSULTATION_PAGE} className="button button--primary">
            {t('routine.toQuestionnaire')}
          </Link>
        </div>
      )}
    </>
  );
}

/** What "what changed" compares with, and how to say so. */
interface Comparison {
  changes: RoutineChanges;
  /** The routine last shown on this device, or (the first time) the one the previous scan gave. */
  since: 'shown' | 'previousScan';
}

function useComparison(routine: Routine, profile: ConsultationProfile, scans: readonly ScanResult[], consent: string) {
  const [comparison, setComparison] = useState<Comparison | null>(null);
  useEffect(() => {
    // The routine shown before on this device; the first time, the one the previous scan gave.
    const shown = consent ? rememberShown(routine, consent) : undefined;
    const shownChanges = shown ? routineChanges(shown, routine, profile, scans) : undefined;
    if (shownChanges) return setComparison({ changes: shownChanges, since: 'shown' });
    const before = routineBeforeLatestScan(profile, scans);
    const scanChanges = before ? routineChanges(snapshotOf(before), routine, profile, scans) : undefined;
    setComparison(
      scanChanges && (scanChanges.added.length > 0 || scanChanges.removed.length > 0)
        ? { changes: scanChanges, since: 'previousScan' }
        : null,
    );
  }, [routine, profile, scans, consent]);
  return comparison;
}

function ProfileRoutine({
  profile,
  scans,
  consent,
}: {
  profile: ConsultationProfile;
  scans: readonly ScanResult[];
  consent: string;
}) {
  const { t } = useTranslation('studio');
  const { text, value } = useLineText();
  const routine = useMemo(() => buildRoutine(profile, scans), [profile, scans]);
  const prompt = useMemo(() => fastChangePrompt(scans), [scans]);
  const comparison = useComparison(routine, profile, scans, consent);
  const answersDate = value({ date: profile.updatedAt });

  return (
    <>
      <p className="routine-basis">
        {routine.basis.scanTakenAt
          ? t('routine.basedOnScan', { answers: answersDate, scan: value({ date: routine.basis.scanTakenAt }) })
          : t('routine.basedOnAnswers', { answers: answersDate })}
      </p>
      <p className="routine-links">
        <Link to={STUDIO_CONSULTATION_PAGE} className="button button--secondary button--small">
          {t('routine.editAnswers')}
        </Link>
        <Link to={STUDIO_SCAN_PAGE} className="button button--ghost button--small">
          {t('routine.takeScan')}
        </Link>
      </p>
      {prompt ? <DermatologistNotice line={prompt} level={2} /> : null}
      {comparison ? <ChangesView comparison={comparison} routine={routine} scans={scans} /> : null}

      <div className="routine-times">
        {(['morning', 'evening'] as const).map((time) => (
          <TimeRoutine key={time} time={time} entries={time === 'morning' ? routine.morning : routine.evening} />
        ))}
      </div>

      {routine.leftOut.length > 0 ? (
        <section className="studio-section routine-left-out" aria-labelledby="routine-left-out-title">
          <h2 id="routine-left-out-title">{t('routine.leftOutTitle')}</h2>
          <p>{t('routine.leftOutLead')}</p>
          <ul className="routine-left-out__list">
            {routine.leftOut.map((left) => (
              <li key={left.step.id} className="studio-card">
                <h3>{t(`routine.steps.${left.step.id}.name`)}</h3>
                <p className="routine-left-out__why">{text(left.why)}</p>
                <p className="studio-muted">{t('routine.selectedFor')}</p>
                <ul className="routine-reasons">
                  {left.reasons.map((reason) => (
                    <li key={reason.rule}>{text(reason)}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="studio-section routine-how" aria-labelledby="routine-how-title">
        <h2 id="routine-how-title">{t('routine.howToUse.title')}</h2>
        <ul className="studio-points">
          {(t('routine.howToUse.points', { returnObjects: true }) as string[]).map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </section>
      <p className="studio-disclaimer">{t('routine.disclaimer')}</p>
    </>
  );
}

function TimeRoutine({ time, entries }: { time: RoutineTime; entries: readonly RoutineEntry[] }) {
  const { t } = useTranslation('studio');
  const { text, value } = useLineText();
  const titleId = `routine-${time}-title`;
  return (
    <section className={`routine-time routine-time--${time}`} aria-labelledby={titleId}>
      <h2 id={titleId}>
        {t(`routine.${time}`)}{' '}
        <span className="routine-time__count">{t('routine.stepCount', { count: entries.length })}</span>
      </h2>
      <ol className="routine-steps">
        {entries.map((entry) => (
          <li key={entry.step.id} className="studio-card routine-step">
            <h3 className="routine-step__name">{t(`routine.steps.${entry.step.id}.name`)}</h3>
            {entry.step.ingredients.length > 0 ? (
              <p className="routine-step__ingredients">
                <span className="routine-step__label">{t('routine.lookFor')}</span>{' '}
                {value({
                  list: entry.step.ingredients.map((ingredient) => ({ key: `routine.ingredients.${ingredient}` })),
                })}
              </p>
            ) : null}
            <p className="routine-step__frequency">{t(`routine.frequency.${entry.step.frequency}`)}</p>
            <h4 className="routine-step__why">{t('routine.why')}</h4>
            <ul className="routine-reasons">
              {entry.reasons.map((reason) => (
                <li key={reason.rule}>{text(reason)}</li>
              ))}
            </ul>
            {entry.step.caution ? (
              <p className="routine-caution">{t(`routine.cautions.${entry.step.caution}`)}</p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function ChangesView({
  comparison,
  routine,
  scans,
}: {
  comparison: Comparison;
  routine: Routine;
  scans: readonly ScanResult[];
}) {
  const { t } = useTranslation('studio');
  const { text, value } = useLineText();
  const { changes } = comparison;
  const unchanged = changes.added.length === 0 && changes.removed.length === 0;
  const { scanTakenAt, profileUpdatedAt } = routine.basis;
  let summary: string;
  if (comparison.since === 'previousScan')
    summary = t('routine.changes.previousScan', { date: value({ date: newestFirst(scans)[1]!.takenAt }) });
  else {
    const which = changes.newScan && changes.newAnswers ? 'both' : changes.newScan ? 'scan' : 'answers';
    const key = unchanged ? `unchanged${which[0]!.toUpperCase()}${which.slice(1)}` : which;
    const date = value({ date: which === 'scan' && scanTakenAt ? scanTakenAt : profileUpdatedAt });
    summary = t(`routine.changes.${key}`, { date });
  }
  // A step added or removed at both times is said once: "(morning and evening)".
  const when = (times: readonly RoutineTime[]) =>
    value({ list: times.map((time) => ({ key: `routine.times.${time}` })) });
  const added = byStep(changes.added, (entry) => entry.reasons);
  const removed = byStep(changes.removed, (item) => item.why);
  const item = (key: string, step: string, times: RoutineTime[], lines: readonly TextLine[]) => (
    <li key={key}>
      <strong>{t('routine.changes.inRoutine', { step: t(`routine.steps.${step}.name`), time: when(times) })}</strong>
      <ul className="routine-reasons">
        {lines.map((line, index) => (
          <li key={index}>{text(line)}</li>
        ))}
      </ul>
    </li>
  );
  return (
    <section className="studio-card routine-changes" aria-labelledby="routine-changes-title">
      <h2 id="routine-changes-title">{t('routine.changes.title')}</h2>
      <p>{summary}</p>
      {added.length > 0 ? (
        <>
          <h3>{t('routine.changes.added')}</h3>
          <ul className="routine-changes__list">
            {added.map((group) => item(`added/${group.step}`, group.step, group.times, group.lines))}
          </ul>
        </>
      ) : null}
      {removed.length > 0 ? (
        <>
          <h3>{t('routine.changes.removed')}</h3>
          <ul className="routine-changes__list">
            {removed.map((group) => item(`removed/${group.step}`, group.step, group.times, group.lines))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** Changes grouped by step: one item for a step added (or removed) morning and evening alike. */
function byStep<T extends { step: { id: string }; time: RoutineTime }>(
  items: readonly T[],
  lines: (item: T) => readonly TextLine[],
): { step: string; times: RoutineTime[]; lines: readonly TextLine[] }[] {
  const groups = new Map<string, { step: string; times: RoutineTime[]; lines: readonly TextLine[] }>();
  for (const item of items) {
    const said = lines(item);
    const key = `${item.step.id}/${JSON.stringify(said)}`;
    const group = groups.get(key);
    if (group) group.times.push(item.time);
    else groups.set(key, { step: item.step.id, times: [item.time], lines: said });
  }
  return [...groups.values()];
}
