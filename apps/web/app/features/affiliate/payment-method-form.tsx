import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  type PaymentMethodSummary,
  paymentMethodFieldErrors,
  validatePaymentMethod,
} from '@skanova/shared/affiliate/payment-method';
import type { CallableFunctions } from '@skanova/shared/callable/functions';
import { CallableClientError, callFunction, callableErrorMessage } from '../../lib/callable';
import { type FieldError, callFieldErrors, fieldErrorText } from '../../lib/form-errors';
import { useTranslation } from '../../lib/react-i18n';
import {
  type PaymentFormValues,
  PaymentMethodFields,
  paymentDetailsOf,
  paymentFormOf,
} from '../../components/payment-method-fields';
import { SubmitActions } from '../../components/form-parts';
import { dashboardKeys } from './queries';

// The Payments tab's update form (docs/product/routes-and-screens.md#payments-tab, docs/product/rules-and-constants.md#validation, docs/product/messages.md#payment-update-messages payment catalogue): PayPal or
// bank transfer, starting from the stored method; checked in the browser by the same rule as on
// the server first, with the same field errors; any edit clears the previous message; success
// re-fetches the method and is scrolled into view after 100 ms, an error at once.

/** docs/product/rules-and-constants.md#timings: "page scrolls to it after 100 ms" (the success message). */
export const SUCCESS_SCROLL_DELAY_MS = 100;

type UpdateRequest = CallableFunctions['updateAffiliatePaymentMethod']['request'];
type UpdateResponse = CallableFunctions['updateAffiliatePaymentMethod']['response'];
export type UpdatePaymentMethod = (request: UpdateRequest) => Promise<UpdateResponse>;

const updateOnServer: UpdatePaymentMethod = (request) => callFunction('updateAffiliatePaymentMethod', request);

type Message = { kind: 'success' } | { kind: 'error'; errors: FieldError[]; failure?: unknown } | null;

const ERROR_ID = 'dashboard-payment-error';

/**
 * A refusal from the server (docs/product/messages.md#payment-update-messages): its field errors; else its payment code's message when the
 * `payment` namespace has one; else the callable catalogue (server message, detail, generic).
 */
function refusal(error: unknown, exists: (key: string) => boolean): Message {
  const fields = callFieldErrors(error);
  if (fields.length > 0) return { kind: 'error', errors: fields };
  const key = error instanceof CallableClientError ? `payment:errors.${error.code}` : '';
  if (key && exists(key)) return { kind: 'error', errors: [{ path: '', key }] };
  return { kind: 'error', errors: [], failure: error };
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

  const save = useMutation({
    mutationFn: (request: UpdateRequest) => update(request),
    onSuccess: (result) => {
      setValues(paymentFormOf(result.paymentMethod));
      setMessage({ kind: 'success' });
      return queryClient.invalidateQueries({ queryKey: dashboardKeys.paymentMethod });
    },
    onError: (error) => setMessage(refusal(error, (key) => i18n.exists(key))),
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

  const errors = message?.kind === 'error' ? message.errors : [];

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
      setMessage({ kind: 'error', errors: paymentMethodFieldErrors(checked) });
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
        errors={errors}
        errorId={ERROR_ID}
        storedIbanMasked={stored?.type === 'bank_transfer' ? stored.ibanMasked : null}
        disabled={save.isPending}
      />
      {message?.kind === 'error' ? (
        <p ref={messageRef} id={ERROR_ID} className="form-error" role="alert">
          {errors[0]
            ? fieldErrorText(t, errors[0], errors)
            : callableErrorMessage(message.failure, tCommon, (key) => i18n.exists(key, { ns: 'common' }))}
        </p>
      ) : null}
      <div role="status">
        {message?.kind === 'success' ? (
          <p ref={messageRef} className="form-success">
            {tDashboard('payments.update.success')}
          </p>
        ) : null}
      </div>
      <SubmitActions
        label={tDashboard('payments.update.submit')}
        busyLabel={tDashboard('payments.update.busy')}
        busy={save.isPending}
      />
    </form>
  );
}
