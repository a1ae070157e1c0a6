import { type FormEvent, type InputHTMLAttributes, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AFFILIATE_DASHBOARD_PAGE, AFFILIATE_LOGIN_PAGE, PROFILE_LIMITS } from '@skanova/shared/affiliate/constants';
import { MIN_AFFILIATE_AGE } from '@skanova/shared/affiliate/programme';
import { configureZodForBrowser } from '@skanova/shared/site/browser-zod';
import { CallableClientError, callFunction, callableErrorMessage } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { PaymentMethodFields } from '../../components/payment-method-fields';
import { fieldAria, fieldErrorText } from '../../lib/form-errors';
import { PASSWORD_LIMITS } from '../../lib/auth/auth-messages';
import { AuthField } from '../../components/auth-field';
import { useSession } from '../../lib/auth/session';
import {
  EMPTY_SIGNUP,
  afterPaymentMethodChange,
  LAST_STEP,
  SIGNUP_STEPS,
  type SignupProblem,
  type SignupStep,
  type SignupValues,
  serverProblem,
  signupRequest,
  stepMessages,
  stepProblem,
} from './signup-steps';
import './signup-form.css';

// This chunk is where the signup page first uses zod: make sure it never probes `new Function` (CSP).
if (typeof document !== 'undefined') configureZodForBrowser();

/** Failures the callable catalogue words well for signup; anything else gets the signup's generic message. */
const CATALOGUE_CODES = new Set(['internal', 'unavailable', 'deadline-exceeded', 'cancelled', 'resource-exhausted']);

type TextField = Exclude<keyof SignupValues, 'payment' | 'termsAccepted'>;

const ERROR_ID = 'signup-error';

/**
 * Affiliate signup in three steps (docs/product/routes-and-screens.md#affiliate-signup): account, profile, payment method and terms. Next checks
 * the step, Back returns and clears the message, Create account sends everything to `createAffiliate`
 * and opens the dashboard. What the visitor typed is kept on every error; focus follows the step
 * heading, or the message when there is one.
 */
export default function SignupForm() {
  const { t, i18n } = useTranslation('auth');
  const { t: tCommon } = useTranslation('common');
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [values, setValues] = useState<SignupValues>(EMPTY_SIGNUP);
  const [step, setStep] = useState<SignupStep>(1);
  const [problem, setProblem] = useState<SignupProblem | null>(null);
  const [busy, setBusy] = useState(false);
  // Submitting before hydration would post the form natively: the buttons wait for the script.
  const [ready, setReady] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const banner = useRef<HTMLDivElement>(null);
  const stepShown = useRef(false);

  useEffect(() => setReady(true), []);
  // A new step is announced by moving focus to its heading (not on first load: the page keeps it).
  useEffect(() => {
    if (stepShown.current) heading.current?.focus();
    stepShown.current = true;
  }, [step]);
  // Declared after the step effect: when a problem also changes the step, the message wins. Only a
  // problem just found moves the focus: one that loses an error while the visitor types keeps it there.
  const announce = useRef(false);
  useEffect(() => {
    if (problem && announce.current) banner.current?.focus();
    announce.current = false;
  }, [problem]);

  const stepTitles = t('signup.steps', { returnObjects: true }) as string[];
  const errors = problem?.errors ?? [];

  /** Every message of the step at once, each naming the fields it concerns; or what the failure says. */
  function messages(current: SignupProblem): string[] {
    const known = stepMessages(current.errors).filter(([lead]) => lead && i18n.exists(lead.key));
    if (known.length > 0) return known.map((errors) => fieldErrorText(t, errors[0]!, errors, PASSWORD_LIMITS));
    if (current.failure instanceof CallableClientError && CATALOGUE_CODES.has(current.failure.code)) {
      return [callableErrorMessage(current.failure, tCommon, (key) => i18n.exists(key, { ns: 'common' }))];
    }
    return [t('errors.generic')];
  }
  const shownMessages = problem ? messages(problem) : [];

  function show(next: SignupProblem) {
    announce.current = true;
    setProblem(next);
    setStep(next.step);
  }

  async function createAccount() {
    setBusy(true);
    setProblem(null);
    try {
      await callFunction('createAffiliate', signupRequest(values, i18n.language));
      // The answer carried the session cookie: read it, then open the dashboard.
      await refresh();
      await navigate(AFFILIATE_DASHBOARD_PAGE, { replace: true });
    } catch (error) {
      show(serverProblem(error));
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !ready) return;
    const found = stepProblem(step, values);
    if (found) return show(found);
    setProblem(null);
    if (step < LAST_STEP) setStep((step + 1) as SignupStep);
    else void createAccount();
  }

  function back() {
    setProblem(null);
    setStep((step - 1) as SignupStep);
  }

  const set = (patch: Partial<SignupValues>) => setValues((current) => ({ ...current, ...patch }));

  const field = (
    name: TextField,
    options: { label?: string; optional?: boolean; hint?: string } & Pick<
      InputHTMLAttributes<HTMLInputElement>,
      'type' | 'autoComplete' | 'maxLength' | 'inputMode'
    >,
  ) => {
    const { label, optional, hint, ...input } = options;
    return (
      <AuthField
        id={`signup-${name}`}
        name={name}
        label={
          <>
            {label ?? t(`fields.${name}`)}
            {optional ? <span className="form-optional"> {t('fields.optional')}</span> : null}
          </>
        }
        state={[values[name], (value: string) => set({ [name]: value })]}
        required={!optional}
        shown={{ errors, id: ERROR_ID }}
        hint={hint}
        {...input}
      />
    );
  };

  return (
    <div className="signup">
      <ol className="signup-steps" aria-label={t('signup.stepsLabel')}>
        {SIGNUP_STEPS.map((number) => (
          <li
            key={number}
            className={`signup-steps__item${number === step ? ' signup-steps__item--current' : ''}${number < step ? ' signup-steps__item--done' : ''}`}
            aria-current={number === step ? 'step' : undefined}
          >
            <span className="signup-steps__number" aria-hidden="true">
              {number}
            </span>
            <span className="signup-steps__title">{stepTitles[number - 1]}</span>
          </li>
        ))}
      </ol>

      {problem ? (
        <div id={ERROR_ID} ref={banner} className="form-error" role="alert" tabIndex={-1}>
          {shownMessages.length === 1 ? (
            shownMessages[0]
          ) : (
            <>
              <p>{t('signup.errorsTitle', { count: shownMessages.length })}</p>
              <ul>
                {shownMessages.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}

      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="signup-step-heading">
        <h2 id="signup-step-heading" ref={heading} tabIndex={-1} className="auth-form__heading">
          {t('signup.stepHeading', { current: step, total: LAST_STEP, title: stepTitles[step - 1] })}
        </h2>

        {step === 1 ? (
          <>
            {field('email', { type: 'email', autoComplete: 'email', maxLength: PROFILE_LIMITS.email })}
            {field('password', {
              type: 'password',
              autoComplete: 'new-password',
              hint: t('fields.passwordHint', PASSWORD_LIMITS),
              maxLength: PASSWORD_LIMITS.max,
            })}
            {field('confirmPassword', {
              type: 'password',
              autoComplete: 'new-password',
              maxLength: PASSWORD_LIMITS.max,
            })}
          </>
        ) : null}

        {step === 2 ? (
          <>
            <div className="columns form-row">
              {field('firstName', { autoComplete: 'given-name', maxLength: PROFILE_LIMITS.name })}
              {field('lastName', { autoComplete: 'family-name', maxLength: PROFILE_LIMITS.name })}
            </div>
            {field('phone', { type: 'tel', autoComplete: 'tel', optional: true, maxLength: PROFILE_LIMITS.phone })}
            {field('companyName', {
              autoComplete: 'organization',
              optional: true,
              maxLength: PROFILE_LIMITS.companyName,
            })}
            {field('website', {
              type: 'url',
              autoComplete: 'url',
              inputMode: 'url',
              optional: true,
              hint: t('fields.websiteHint'),
              maxLength: PROFILE_LIMITS.website,
            })}
          </>
        ) : null}

        {step === 3 ? (
          <>
            <PaymentMethodFields
              values={values.payment}
              onChange={(payment) => {
                // An error about the other method's details no longer applies; the others stay.
                if (payment.method !== values.payment.method && problem) setProblem(afterPaymentMethodChange(problem));
                set({ payment });
              }}
              allowLater
              idPrefix="signup-payment"
              errors={errors}
              errorId={ERROR_ID}
              disabled={busy}
            />
            <div className="form-field signup-terms">
              <label className="choice" htmlFor="signup-terms">
                <input
                  id="signup-terms"
                  name="termsAccepted"
                  type="checkbox"
                  checked={values.termsAccepted}
                  onChange={(event) => set({ termsAccepted: event.target.checked })}
                  required
                  {...fieldAria(errors, 'termsAccepted', ERROR_ID)}
                />
                <span>
                  {t('signup.termsBefore', { age: MIN_AFFILIATE_AGE })}{' '}
                  <a href="/affiliate/terms" target="_blank" rel="noopener">
                    {t('signup.termsLink')}
                    <span className="visually-hidden"> {t('signup.newTab')}</span>
                  </a>
                </span>
              </label>
            </div>
          </>
        ) : null}

        <div className="form-actions auth-form__actions">
          {step > 1 ? (
            <button type="button" className="button button--secondary" onClick={back} disabled={busy}>
              {t('signup.back')}
            </button>
          ) : null}
          <button type="submit" className="button button--primary" disabled={!ready || busy}>
            {step < LAST_STEP ? t('signup.next') : busy ? t('signup.submitting') : t('signup.submit')}
          </button>
        </div>
      </form>

      <p className="auth-card__switch">
        {t('signup.haveAccount')} <Link to={AFFILIATE_LOGIN_PAGE}>{t('signup.login')}</Link>
      </p>
    </div>
  );
}
