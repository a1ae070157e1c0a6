import type { PaymentMethodSummary, SignupPaymentChoice } from '@skanova/shared/affiliate/payment-method';
import { PROFILE_LIMITS } from '@skanova/shared/affiliate/constants';
import { type FieldError, fieldAria } from '../lib/form-errors';
import { useTranslation } from '../lib/react-i18n';
import './payment-method-fields.css';

// The payment-method choice and its fields (docs/product/routes-and-screens.md#affiliate-signup signup step 3 and the dashboard's update form).
// One component for both; signup also offers "set up later" (its default). Strings: `payment` namespace.

export interface PaymentFormValues {
  method: SignupPaymentChoice;
  paypalEmail: string;
  accountHolder: string;
  bankName: string;
  bankIban: string;
  bic: string;
}

export const EMPTY_PAYMENT_FORM: PaymentFormValues = {
  method: 'later',
  paypalEmail: '',
  accountHolder: '',
  bankName: '',
  bankIban: '',
  bic: '',
};

/**
 * The dashboard's form starting from the stored method (docs/product/routes-and-screens.md#payments-tab). The IBAN is stored encrypted and
 * shown masked, so it starts empty: changing bank details means typing it again. Without a stored
 * method the form starts on PayPal (the dashboard does not offer "later").
 */
export function paymentFormOf(stored: PaymentMethodSummary | null | undefined): PaymentFormValues {
  if (stored?.type === 'paypal') return { ...EMPTY_PAYMENT_FORM, method: 'paypal', paypalEmail: stored.paypalEmail };
  if (stored?.type === 'bank_transfer') {
    return {
      ...EMPTY_PAYMENT_FORM,
      method: 'bank_transfer',
      accountHolder: stored.accountHolder,
      bankName: stored.bankName,
      bic: stored.bic,
    };
  }
  return { ...EMPTY_PAYMENT_FORM, method: 'paypal' };
}

/** The details object the server functions expect for the chosen method. */
export function paymentDetailsOf(values: PaymentFormValues): Record<string, string> {
  if (values.method === 'paypal') return { paypalEmail: values.paypalEmail };
  if (values.method === 'bank_transfer') {
    return {
      accountHolder: values.accountHolder,
      bankName: values.bankName,
      bankIban: values.bankIban,
      bic: values.bic,
    };
  }
  return {};
}

interface PaymentMethodFieldsProps {
  values: PaymentFormValues;
  onChange: (values: PaymentFormValues) => void;
  /** Signup offers "set up later"; the dashboard form does not (docs/product/routes-and-screens.md#affiliate-signup). */
  allowLater?: boolean;
  /** Prefix of the inputs' ids (two forms never share a page, but labels need unique ids). */
  idPrefix: string;
  /** The errors the form shows: a field is invalid when one is about `paymentDetails.<field>`. */
  errors?: readonly FieldError[];
  /** Id of the element that says what is wrong (the form's message). */
  errorId?: string;
  /** The stored IBAN, masked, shown as a hint when the bank details are edited. */
  storedIbanMasked?: string | null;
  disabled?: boolean;
}

export function PaymentMethodFields({
  values,
  onChange,
  allowLater = false,
  idPrefix,
  errors = [],
  errorId,
  storedIbanMasked,
  disabled = false,
}: PaymentMethodFieldsProps) {
  const { t } = useTranslation('payment');
  const choices: SignupPaymentChoice[] = allowLater
    ? ['later', 'paypal', 'bank_transfer']
    : ['paypal', 'bank_transfer'];
  const set = (patch: Partial<PaymentFormValues>) => onChange({ ...values, ...patch });
  const id = (name: string) => `${idPrefix}-${name}`;

  const textField = (
    name: Exclude<keyof PaymentFormValues, 'method'>,
    options: { type?: string; autoComplete?: string; maxLength?: number; hint?: string } = {},
  ) => (
    <div className="form-field">
      <label className="form-label" htmlFor={id(name)}>
        {t(`fields.${name}`)}
      </label>
      <input
        id={id(name)}
        name={name}
        type={options.type ?? 'text'}
        value={values[name]}
        onChange={(event) => set({ [name]: event.target.value })}
        required
        aria-required="true"
        {...fieldAria(errors, `paymentDetails.${name}`, errorId, options.hint ? id(`${name}-hint`) : undefined)}
        autoComplete={options.autoComplete ?? 'off'}
        maxLength={options.maxLength}
        disabled={disabled}
      />
      {options.hint ? (
        <p className="form-hint" id={id(`${name}-hint`)}>
          {options.hint}
        </p>
      ) : null}
    </div>
  );

  return (
    <fieldset className="payment-method-fields" disabled={disabled}>
      <legend className="form-label">{t('legend')}</legend>
      <div className="payment-method-choices" role="radiogroup" aria-label={t('legend')}>
        {choices.map((choice) => (
          <label key={choice} className="payment-method-choice" htmlFor={id(`method-${choice}`)}>
            <input
              id={id(`method-${choice}`)}
              type="radio"
              name={id('method')}
              value={choice}
              checked={values.method === choice}
              onChange={() => set({ method: choice })}
            />
            <span>{t(`methods.${choice}`)}</span>
          </label>
        ))}
      </div>
      {values.method === 'later' ? <p className="form-hint">{t('hints.later')}</p> : null}
      {values.method === 'paypal'
        ? textField('paypalEmail', { type: 'email', autoComplete: 'email', maxLength: PROFILE_LIMITS.paypalEmail })
        : null}
      {values.method === 'bank_transfer' ? (
        <div className="payment-method-bank">
          {textField('accountHolder', { autoComplete: 'name', maxLength: PROFILE_LIMITS.accountHolder })}
          {textField('bankName', { autoComplete: 'off', maxLength: PROFILE_LIMITS.bankName })}
          {textField('bankIban', {
            maxLength: 50,
            hint: storedIbanMasked ? t('hints.storedIban', { iban: storedIbanMasked }) : t('hints.bankIban'),
          })}
          {textField('bic', { maxLength: 20, hint: t('hints.bic') })}
          <p className="form-hint">{t('hints.encrypted')}</p>
        </div>
      ) : null}
    </fieldset>
  );
}
