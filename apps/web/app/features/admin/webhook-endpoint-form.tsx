import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { checkForm } from '@skanova/shared/callable/field-errors';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
} from '@skanova/shared/webhooks/constants';
import type { AdminWebhookEndpoint } from '@skanova/shared/webhooks/functions';
import { adminCreateWebhookEndpointSchema, adminUpdateWebhookEndpointSchema } from '@skanova/shared/webhooks/schemas';
import { callFunction } from '../../lib/callable';
import { type FieldError, callFieldErrors, errorAt, fieldAria, fieldErrorText } from '../../lib/form-errors';
import { useTranslation } from '../../lib/react-i18n';
import { adminKeys } from './queries';
import { useWebhookErrorMessage } from './webhook-errors';
import { webhookKeys } from './webhooks-queries';

// An endpoint's form (docs/product/webhooks.md#endpoints): its URL, a note, the events it receives.
// One schema checks it here and on the server (ADR 009); what only the server knows — https in
// production, where the address resolves to — comes back in the same field-error shape, in the
// page's language, and the field says so. Adds an endpoint, or edits the one given.

interface Saved {
  endpoint: AdminWebhookEndpoint;
  /** A new endpoint's signing secret, answered once. */
  secret?: string;
}

interface Values {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
}

const FIELDS = ['url', 'description', 'eventTypes'] as const;

export function WebhookEndpointForm({
  idPrefix,
  endpoint,
  onSaved,
  onCancel,
}: {
  idPrefix: string;
  endpoint?: AdminWebhookEndpoint;
  onSaved: (saved: Saved) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const errorMessage = useWebhookErrorMessage();
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const empty: Values = { url: '', description: '', eventTypes: [] };
  const [values, setValues] = useState<Values>(() =>
    endpoint ? { url: endpoint.url, description: endpoint.description ?? '', eventTypes: endpoint.eventTypes } : empty,
  );
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: async (request: Values): Promise<Saved> =>
      endpoint
        ? { endpoint: await callFunction('adminUpdateWebhookEndpoint', { endpointId: endpoint.id, ...request }) }
        : callFunction('adminCreateWebhookEndpoint', request),
    onSuccess: (saved) => {
      if (!endpoint) setValues(empty);
      onSaved(saved);
    },
    onError: (error) => {
      const fields = callFieldErrors(error);
      if (fields.length > 0) show(fields);
      else setFailure(errorMessage(error));
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      ]),
  });

  /** Shows the errors and moves the focus to the first field they name. */
  function show(found: FieldError[]) {
    setErrors(found);
    const first = FIELDS.find((field) => errorAt(found, field));
    const target = first === 'eventTypes' ? `${idPrefix}-event-0` : `${idPrefix}-${first ?? 'url'}`;
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`#${CSS.escape(target)}`)?.focus());
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    const request = { ...values, eventTypes: [...values.eventTypes] };
    const checked = endpoint
      ? checkForm(adminUpdateWebhookEndpointSchema, { endpointId: endpoint.id, ...request })
      : checkForm(adminCreateWebhookEndpointSchema, request);
    if (!checked.success) {
      show(checked.errors);
      return;
    }
    setErrors([]);
    save.mutate(request);
  }

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => current.filter((error) => !error.path.startsWith(field)));
  };
  const errorId = (field: string) => `${idPrefix}-${field}-error`;
  const fieldError = (field: string) => {
    const error = errorAt(errors, field);
    return error ? (
      <p className="field-error" id={errorId(field)}>
        {fieldErrorText(t, error)}
      </p>
    ) : null;
  };
  const eventsInvalid = errorAt(errors, 'eventTypes') !== undefined;

  return (
    <form ref={form} className="form admin-webhooks__form" onSubmit={onSubmit} noValidate>
      <div className="form-field">
        <label htmlFor={`${idPrefix}-url`}>{t('form.url')}</label>
        <input
          id={`${idPrefix}-url`}
          type="url"
          inputMode="url"
          value={values.url}
          maxLength={WEBHOOK_URL_MAX}
          autoComplete="off"
          spellCheck={false}
          required
          aria-required="true"
          placeholder="https://example.com/webhooks"
          onChange={(event) => set('url', event.target.value)}
          {...fieldAria(errors, 'url', errorId('url'), `${idPrefix}-url-hint`)}
        />
        <p className="form-hint" id={`${idPrefix}-url-hint`}>
          {t('form.urlHint')}
        </p>
        {fieldError('url')}
      </div>
      <div className="form-field">
        <label htmlFor={`${idPrefix}-description`}>{t('form.description')}</label>
        <input
          id={`${idPrefix}-description`}
          value={values.description}
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          autoComplete="off"
          onChange={(event) => set('description', event.target.value)}
          {...fieldAria(errors, 'description', errorId('description'), `${idPrefix}-description-hint`)}
        />
        <p className="form-hint" id={`${idPrefix}-description-hint`}>
          {t('form.descriptionHint')}
        </p>
        {fieldError('description')}
      </div>
      <fieldset aria-describedby={eventsInvalid ? errorId('eventTypes') : undefined}>
        <legend>{t('form.events')}</legend>
        <div className="admin-webhooks__choices">
          {WEBHOOK_EVENT_TYPES.map((type, index) => (
            <label key={type} className="choice" htmlFor={`${idPrefix}-event-${index}`}>
              <input
                id={`${idPrefix}-event-${index}`}
                type="checkbox"
                checked={values.eventTypes.includes(type)}
                aria-invalid={eventsInvalid ? true : undefined}
                onChange={(event) =>
                  set(
                    'eventTypes',
                    event.target.checked
                      ? WEBHOOK_EVENT_TYPES.filter((known) => known === type || values.eventTypes.includes(known))
                      : values.eventTypes.filter((known) => known !== type),
                  )
                }
              />
              <span>
                <code>{type}</code>
                <span className="admin-table__sub">{t(`events.${type}`)}</span>
              </span>
            </label>
          ))}
        </div>
        {fieldError('eventTypes')}
      </fieldset>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? t('form.busy') : endpoint ? t('form.save') : t('form.submit')}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={save.isPending}>
            {t('form.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
