import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/react-i18n';
import { DEFAULT_LANGUAGE, isLanguage } from '@skanova/shared/site/constants';
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_SUBJECTS,
  type ContactField,
  type ContactRequest,
  contactRequestSchema,
} from '@skanova/shared/support/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { configureZodForBrowser } from '@skanova/shared/site/browser-zod';
import { callFunction, callableErrorMessage } from '../../../lib/callable';
import { type FieldError, callFieldErrors, errorAt, fieldAria, fieldErrorText } from '../../../lib/form-errors';

// This chunk is where the page first uses zod: make sure it never probes `new Function` (CSP).
if (typeof document !== 'undefined') configureZodForBrowser();

type Status = { kind: 'idle' | 'busy' | 'invalid' | 'success' } | { kind: 'error'; message: string };

/** Sends a valid request; the page uses the `submitContactForm` server function. */
export type SendContactForm = (request: ContactRequest) => Promise<unknown>;

const sendToServer: SendContactForm = (request) => callFunction('submitContactForm', request);

function formValues(form: HTMLFormElement): Record<ContactField, string> {
  const data = new FormData(form);
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, String(data.get(field) ?? '')])) as Record<
    ContactField,
    string
  >;
}

/**
 * The support contact form. Its fields are uncontrolled: what the visitor typed stays in them on
 * every error (even typed before hydration) and is cleared only once the ticket is filed. The same
 * shared schema as the server validates it; messages are i18n keys of the `support` namespace.
 */
export default function ContactForm({ send = sendToServer }: { send?: SendContactForm }) {
  const { t, i18n } = useTranslation('support');
  const { t: tCommon } = useTranslation('common');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // Submitting before hydration would post the form natively: the button waits for the script.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const busy = status.kind === 'busy';

  const message = (error: FieldError) =>
    fieldErrorText(t, error, [error], {
      min: CONTACT_LIMITS.messageMin,
      max: error.key === 'support:form.errors.nameTooLong' ? CONTACT_LIMITS.name : CONTACT_LIMITS.message,
    });

  /** Shows field errors (the browser's check or the server's): the form's notice, each field's message, focus on the first. */
  function flag(form: HTMLFormElement, found: FieldError[]) {
    setErrors(found);
    setStatus({ kind: 'invalid' });
    const first = CONTACT_FIELDS.find((field) => errorAt(found, field));
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const checked = checkForm(contactRequestSchema, formValues(form));
    if (!checked.success) return flag(form, checked.errors);
    setErrors([]);
    setStatus({ kind: 'busy' });
    try {
      await send({ ...checked.data, language: isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE });
      form.reset();
      setStatus({ kind: 'success' });
    } catch (error) {
      const refused = callFieldErrors(error);
      if (refused.length > 0) return flag(form, refused);
      setStatus({
        kind: 'error',
        message: callableErrorMessage(error, tCommon, (key) => i18n.exists(key, { ns: 'common' })),
      });
    }
  }

  // Once a field was flagged, its message follows what the visitor types.
  function onChange(event: FormEvent<HTMLFormElement>) {
    if (errors.length === 0) return;
    const next = checkForm(contactRequestSchema, formValues(event.currentTarget)).errors;
    setErrors((current) =>
      CONTACT_FIELDS.flatMap((field) => (errorAt(current, field) ? (errorAt(next, field) ?? []) : [])),
    );
  }

  const fieldProps = (field: ContactField, hint?: string) => ({
    id: `contact-${field}`,
    name: field,
    required: true,
    ...fieldAria(errors, field, `contact-${field}-error`, hint),
  });
  const fieldError = (field: ContactField) => {
    const error = errorAt(errors, field);
    return error ? (
      <p className="field-error" id={`contact-${field}-error`}>
        {message(error)}
      </p>
    ) : null;
  };

  return (
    <form
      id="contact-form"
      className="form support-form"
      noValidate
      aria-labelledby="contact-form-title"
      onSubmit={onSubmit}
      onChange={onChange}
    >
      <h3 id="contact-form-title">{t('form.title')}</h3>
      <p className="form-hint">{t('form.lead')}</p>
      <div role="alert">
        {status.kind === 'invalid' ? <p className="form-error">{t('form.invalid')}</p> : null}
        {status.kind === 'error' ? <p className="form-error">{status.message}</p> : null}
      </div>
      <div role="status">{status.kind === 'success' ? <p className="form-success">{t('form.success')}</p> : null}</div>
      <div className="columns form-row">
        <div className="form-field">
          <label htmlFor="contact-name">{t('form.name')}</label>
          <input type="text" autoComplete="name" maxLength={CONTACT_LIMITS.name} {...fieldProps('name')} />
          {fieldError('name')}
        </div>
        <div className="form-field">
          <label htmlFor="contact-email">{t('form.email')}</label>
          <input type="email" autoComplete="email" maxLength={CONTACT_LIMITS.email} {...fieldProps('email')} />
          {fieldError('email')}
        </div>
      </div>
      <div className="form-field">
        <label htmlFor="contact-subject">{t('form.subject')}</label>
        <select defaultValue="" {...fieldProps('subject')}>
          <option value="">{t('form.subjectPlaceholder')}</option>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject} value={subject}>
              {t(`form.subjects.${subject}`)}
            </option>
          ))}
        </select>
        {fieldError('subject')}
      </div>
      <div className="form-field">
        <label htmlFor="contact-message">{t('form.message')}</label>
        <textarea rows={6} maxLength={CONTACT_LIMITS.message} {...fieldProps('message', 'contact-message-hint')} />
        <p className="form-hint" id="contact-message-hint">
          {t('form.messageHint', { min: CONTACT_LIMITS.messageMin })}
        </p>
        {fieldError('message')}
      </div>
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={!ready} aria-disabled={busy || undefined}>
          {busy ? <span className="support-form__spinner" aria-hidden="true" /> : null}
          {t(busy ? 'form.sending' : 'form.submit')}
        </button>
      </div>
    </form>
  );
}
