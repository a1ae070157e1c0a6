import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';

interface ConsentFormProps {
  onConsent: () => Promise<void>;
}

/**
 * Before the first scan (docs/product/web-app.md#before-the-first-scan): what happens to the photo, the "not a medical device" notice,
 * the age confirmation (13 or over) and the explicit consent to processing facial data on the device.
 */
export function ConsentForm({ onConsent }: ConsentFormProps) {
  const { t } = useTranslation('studio');
  const [age, setAge] = useState(false);
  const [agree, setAgree] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const ids = { age: useId(), agree: useId() };
  // The boxes are the form's own (uncontrolled): the page is prerendered, and a box ticked before its
  // script takes over would be unticked again by a controlled `checked`. Their state is read from them.
  const ageBox = useRef<HTMLInputElement>(null);
  const agreeBox = useRef<HTMLInputElement>(null);
  const points = t('consent.privatePoints', { returnObjects: true }) as string[];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Read the boxes themselves: one ticked before the script took over was never seen by onChange.
    const ageNow = ageBox.current?.checked ?? age;
    const agreeNow = agreeBox.current?.checked ?? agree;
    setAge(ageNow);
    setAgree(agreeNow);
    setSubmitted(true);
    if (!ageNow || !agreeNow) return;
    setBusy(true);
    setFailed(false);
    onConsent().catch(() => {
      setFailed(true);
      setBusy(false);
    });
  };

  return (
    <section className="studio-card studio-consent" aria-labelledby="studio-consent-title">
      <h1 id="studio-consent-title">{t('consent.title')}</h1>
      <p className="studio-lead">{t('consent.lead')}</p>
      <h2>{t('consent.privateTitle')}</h2>
      <ul className="studio-points">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <div className="studio-notice" role="note">
        <h2>{t('consent.medicalTitle')}</h2>
        <p>{t('consent.medicalText')}</p>
      </div>
      <p className="studio-legal-links">
        <a href="/privacy">{t('consent.readPrivacy')}</a> · <a href="/eula">{t('consent.readEula')}</a>
      </p>
      <form className="form" noValidate onSubmit={submit}>
        {failed ? (
          <p className="form-error" role="alert">
            {t('home.storageError')}
          </p>
        ) : null}
        <div className="form-field">
          <label className="choice">
            <input
              type="checkbox"
              ref={ageBox}
              onChange={(event) => setAge(event.target.checked)}
              aria-invalid={submitted && !age}
              aria-describedby={submitted && !age ? ids.age : undefined}
              required
            />
            <span>{t('consent.ageLabel')}</span>
          </label>
          {submitted && !age ? (
            <p className="field-error" id={ids.age}>
              {t('consent.ageRequired')}
            </p>
          ) : null}
        </div>
        <div className="form-field">
          <label className="choice">
            <input
              type="checkbox"
              ref={agreeBox}
              onChange={(event) => setAgree(event.target.checked)}
              aria-invalid={submitted && !agree}
              aria-describedby={submitted && !agree ? ids.agree : undefined}
              required
            />
            <span>{t('consent.consentLabel')}</span>
          </label>
          {submitted && !agree ? (
            <p className="field-error" id={ids.agree}>
              {t('consent.consentRequired')}
            </p>
          ) : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary button--large" disabled={busy}>
            {t('consent.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
