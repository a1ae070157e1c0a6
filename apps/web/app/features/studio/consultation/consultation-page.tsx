import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_ROUTINE_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { fastChangePrompt } from '@skanova/shared/studio/consultation';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import { latestScan } from '@skanova/shared/studio/scan-results';
import { useTranslation } from '../../../lib/react-i18n';
import { AskResults, DermatologistNotice } from './ask-results';
import { Questionnaire } from './questionnaire';
import { useLineText } from './use-line-text';
import { useStudioData } from './use-studio-data';
import './consultation.css';

const PROFILE_ANCHOR = 'skin-profile';

/** The consultation (docs/product/web-app.md#consultation): the visitor's skin profile, then questions answered from their results. */
export default function Consultation() {
  const { t } = useTranslation('studio');
  const { value } = useLineText();
  const { data, saveProfile } = useStudioData();
  const [editing, setEditing] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  const savedNote = useRef<HTMLParagraphElement>(null);
  const ready = data.status === 'ready' ? data : null;
  const input = useMemo(() => ({ profile: ready?.profile, scans: ready?.scans ?? [] }), [ready]);
  const prompt = useMemo(() => fastChangePrompt(input.scans), [input]);
  const latest = latestScan(input.scans);

  // After saving, the focus goes to the confirmation (the form it was in is gone).
  useEffect(() => {
    if (justSaved) savedNote.current?.focus();
  }, [justSaved]);

  if (data.status === 'loading')
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

  const save = async (profile: ConsultationProfile) => {
    await saveProfile(profile);
    setEditing(false);
    setJustSaved(true);
  };

  return (
    <>
      <header className="consult-header">
        <h1>{t('consultation.title')}</h1>
        <p className="studio-lead">{t('consultation.lead')}</p>
      </header>
      {prompt ? <DermatologistNotice line={prompt} level={2} /> : null}

      <section className="studio-card consult-profile" id={PROFILE_ANCHOR} aria-labelledby="consult-profile-title">
        <h2 id="consult-profile-title">{t('consultation.profile.title')}</h2>
        {!input.profile || editing ? (
          <>
            <p className="studio-muted">{t('consultation.profile.lead')}</p>
            <Questionnaire
              profile={input.profile}
              onSave={save}
              onCancel={input.profile ? () => setEditing(false) : undefined}
            />
          </>
        ) : (
          <>
            {justSaved ? (
              <p className="form-success" role="status" tabIndex={-1} ref={savedNote}>
                {t('consultation.profile.saved')}
              </p>
            ) : null}
            <ProfileSummary profile={input.profile} />
            <p className="studio-muted">
              {t('consultation.profile.updated', { date: value({ date: input.profile.updatedAt }) })}
            </p>
            <div className="form-actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setJustSaved(false);
                  setEditing(true);
                }}
              >
                {t('consultation.profile.edit')}
              </button>
              <Link to={STUDIO_ROUTINE_PAGE} className="button button--primary">
                {t('consultation.profile.seeRoutine')}
              </Link>
            </div>
          </>
        )}
      </section>

      <section className="studio-section consult-ask" aria-labelledby="consult-ask-title">
        <h2 id="consult-ask-title">{t('consultation.ask.title')}</h2>
        <p>{t('consultation.ask.lead')}</p>
        {latest ? (
          <p className="studio-muted">
            {t('consultation.ask.basedOn', { count: input.scans.length, date: value({ date: latest.takenAt }) })}
          </p>
        ) : (
          <div className="form-info consult-no-scan">
            <p>{t('consultation.ask.noScan')}</p>
            <Link to={STUDIO_SCAN_PAGE} className="button button--primary button--small">
              {t('consultation.ask.takeScan')}
            </Link>
          </div>
        )}
        <AskResults input={input} profileAnchor={PROFILE_ANCHOR} />
      </section>

      <p className="studio-disclaimer">{t('consultation.dermatologist.note')}</p>
    </>
  );
}

/** The saved answers, question by question. */
function ProfileSummary({ profile }: { profile: ConsultationProfile }) {
  const { t } = useTranslation('studio');
  const { value } = useLineText();
  const label = (question: string, answer: string) => t(`consultation.choices.${question}.${answer}`);
  const many = (question: string, answers: readonly string[]) =>
    answers.length === 0
      ? t('consultation.profile.none')
      : value({ list: answers.map((answer) => ({ key: `consultation.choices.${question}.${answer}` })) });
  const rows = [
    ['skinType', label('skinType', profile.skinType)],
    ['sensitivity', label('sensitivity', profile.sensitivity)],
    ['concerns', many('concerns', profile.concerns)],
    ['sunExposure', label('sunExposure', profile.sunExposure)],
    ['currentRoutine', many('currentRoutine', profile.currentRoutine)],
    ['ageBand', label('ageBand', profile.ageBand)],
  ] as const;
  return (
    <dl className="consult-summary">
      {rows.map(([question, answer]) => (
        <div key={question}>
          <dt>{t(`consultation.fields.${question}`)}</dt>
          <dd>{answer}</dd>
        </div>
      ))}
    </dl>
  );
}
