import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  type PaymentMethodErrorCode,
  type PaymentMethodSummary,
  validatePaymentMethod,
} from '@skanova/shared/affiliate/payment-method';
import type { CallableFunctions } from '@skanova/shared/callable/functions';
import { CallableClientError, callFunction, callableErrorMessage } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import {
  type PaymentFormValues,
  PaymentMethodFields,
  paymentDetailsOf,
  paymentErrorMessage,
  paymentFormOf,
} from '../../components/payment-method-fields';
import { dashboardKeys } from './queries';

// The Payments tab's update form (spec §4, §5 "Payment update", §8 payment catalogue): PayPal or
// bank transfer, starting from the stored method; checked in the browser by the same function as on
// the server first; any edit clears the previous message; success re-fetches the method and is
// scrolled into view after 100 ms, an error at once.

/** Spec §4: "page scrolls to it after 100 ms" (the success message). */
export const SUCCESS_SCROLL_DELAY_MS = 100;

type UpdateRequest = CallableFunctions['updateAffiliatePaymentMethod']['request'];
type UpdateResponse = CallableFunctions['updateAffiliatePaymentMethod']['response'];
export type UpdatePaymentMethod = (request: UpdateRequest) => Promise<UpdateResponse>;

const updateOnServer: UpdatePaymentMethod = (request) => callFunction('updateAffiliatePaymentMethod', request);

type Message = { kind: 'success' } | { kind: 'error'; text: string; fields: string[] } | null;

function fieldsOf(details: unknown): string[] {
  const fields = typeof details === 'object' && details !== null ? (details as { fields?: unknown }).fields : undefined;
  return Array.isArray(fields) ? fields.filter((field): field is string => typeof field === 'string') : [];
}

/** Spec §8: the payment code's translation, else the callable catalogue (server message, detail, generic). */
function updateErrorMessage(
  error: unknown,
  t: TFunction,
  tCommon: TFunction,
  exists: (key: string, ns: string) => boolean,
): Message {
  if (error instanceof CallableClientError && exists(`errors.${error.code}`, 'payment')) {
    const fields = fieldsOf(error.details);
    return { kind: 'error', text: paymentErrorMessage(error.code as PaymentMethodErrorCode, fields, t), fields };
  }
  return { kind: 'error', text: callableErrorMessage(error, tCommon, (key) => exists(key, 'common')), fields: [] };
}

interface PaymentMethodFormProps {
  /** The stored method, or null when none is configured or it could not be read. */
  stored: PaymentMethodSummary | null;
  update?: UpdatePaymentMethod;
}

export function PaymentMethodForm({ stored, update = updateOnServer }: PaymentMethodFormProps) {
  const { t: tDashboard } = useTranslation('dashboard');
  const { t, i18n } = useTranslation('payment');
  const { t: tCommon } = useTranslation('common');
  const queryClient = useQueryClient();
  const [values, setValues] = useState<PaymentFormValues>(() => paymentFormOf(stored));
  const [message, setMessage] = useState<Message>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const exists = (key: string, ns: string) => i18n.exists(key, { ns });

  const save = useMutation({
    mutationFn: (request: UpdateRequest) => update(request),
    onSuccess: (result) => {
      setValues(paymentFormOf(result.paymentMethod));
      setMessage({ kind: 'success' });
      return queryClient.invalidateQueries({ queryKey: dashboardKeys.paymentMethod });
    },
    onError: (error) => setMessage(updateErrorMessage(error, t, tCommon, exists)),
  });

  useEffect(() => {
    if (!message) return;
    if (message.kind === 'error') {
      messageRef.current?.scrollIntoView({ block: 'center' });
      return;
    }
    const timer = setTimeout(
      () => messageRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' }),
      SUCCESS_SCROLL_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [message]);

  function onChange(next: PaymentFormValues) {
    setValues(next);
    setMessage(null);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const details = paymentDetailsOf(values);
    const checked = validatePaymentMethod(values.method, details);
    if (!checked.ok) {
      setMessage({
        kind: 'error',
        text: paymentErrorMessage(checked.code, checked.fields, t),
        fields: checked.fields ?? [],
      });
      return;
    }
    setMessage(null);
    save.mutate({ paymentMethod: values.method, paymentDetails: details });
  }

  return (
    <form
      className="dashboard-payment-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="dashboard-payment-form-title"
    >
      <h3 id="dashboard-payment-form-title">{tDashboard('payments.update.title')}</h3>
      <PaymentMethodFields
        values={values}
        onChange={onChange}
        idPrefix="dashboard-payment"
        invalidFields={message?.kind === 'error' ? message.fields : []}
        storedIbanMasked={stored?.type === 'bank_transfer' ? stored.ibanMasked : null}
        disabled={save.isPending}
      />
      {message?.kind === 'error' ? (
        <p ref={messageRef} className="form-error" role="alert">
          {message.text}
        </p>
      ) : null}
      <div role="status">
        {message?.kind === 'success' ? (
          <p ref={messageRef} className="form-success">
            {tDashboard('payments.update.success')}
          </p>
        ) : null}
      </div>
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? tDashboard('payments.update.busy') : tDashboard('payments.update.submit')}
        </button>
      </div>
    </form>
  );
}
