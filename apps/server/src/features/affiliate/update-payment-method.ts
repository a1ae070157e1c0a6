import {
  type PaymentMethodSummary,
  paymentMethodFieldErrors,
  validatePaymentMethod,
} from '@skanova/shared/affiliate/payment-method';
import type { AffiliateCaller, AppContext } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { affiliateEmail, emailTime, sendInBackground } from '../../email/email-texts.ts';
import {
  type SealedPaymentMethod,
  savePaymentMethod,
  summarisePaymentMethod,
} from '../../domain/payment-method-store.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { checkSharedPayoutAccount } from '../../domain/review-signals.ts';

// Changing the payment method (docs/product/rules-and-constants.md#validation, docs/product/rules-and-constants.md#security): the same validation as the form,
// then the new method and its audit-log line in one transaction, then an e-mail to the account so
// that its owner hears of a change they did not make (account-takeover protection).

export async function updatePaymentMethod(
  app: AppContext,
  caller: AffiliateCaller,
  paymentMethod: unknown,
  paymentDetails: unknown,
): Promise<PaymentMethodSummary> {
  const result = validatePaymentMethod(paymentMethod, paymentDetails);
  if (!result.ok) {
    throw new CallableError('invalid-argument', 'Invalid payment details.', {
      code: result.code,
      fields: paymentMethodFieldErrors(result),
    });
  }

  const { stored } = await inTransaction(app, async (tx) => {
    const saved = await savePaymentMethod(app, tx, caller.affiliateId, result.value);
    await recordAudit(tx, {
      actor: caller.userId,
      action: 'payment_method.updated',
      subject: caller.affiliateId,
      // What changed, never the account numbers themselves.
      details: { type: saved.stored.type, previousType: saved.previousType, ibanLast4: saved.stored.ibanLast4 },
      at: app.now(),
    });
    // A payout method arriving: is this account another affiliate's too (docs/product/review.md#signals)?
    await checkSharedPayoutAccount(tx, app, { affiliateId: caller.affiliateId, at: app.now() });
    return saved;
  });

  await sendInBackground(app, paymentMethodChangedEmail(app, caller, stored), 'payment-method-changed');
  return summarisePaymentMethod(app, stored);
}

function paymentMethodChangedEmail(
  app: AppContext,
  caller: AffiliateCaller,
  stored: SealedPaymentMethod & { updatedAt: Date },
) {
  return affiliateEmail(app.config.BRAND_NAME, caller, 'paymentMethodChanged', (text) => {
    const method =
      stored.type === 'paypal'
        ? text('paypal', { email: stored.paypalEmail ?? '' })
        : text('bank', { last4: stored.ibanLast4 ?? '' });
    return {
      paragraphs: [
        text('intro', { date: emailTime(stored.updatedAt) }),
        text('method', { method }),
        text('notYou', { support: app.config.SUPPORT_EMAIL }),
      ],
    };
  });
}
