import type { CallableName } from '@skanova/shared/callable/functions';
import type { RegisteredCallable } from '../http/callable.ts';
import { adminCallables } from './admin/index.ts';
import { attributionCallables } from './attribution/index.ts';
import { payoutCallables } from './payouts/index.ts';
import { webhookCallables } from './webhooks/index.ts';
import { rewardCallables } from './rewards/index.ts';
import { createAffiliate } from './create-affiliate.ts';
import { deleteAffiliateAccount } from './delete-affiliate-account.ts';
import { generateReferralCode } from './generate-referral-code.ts';
import { getActiveVisitors } from './get-active-visitors.ts';
import { getAffiliatePaymentMethod } from './get-affiliate-payment-method.ts';
import { getAffiliatePayouts } from './get-affiliate-payouts.ts';
import { getAffiliateSettings } from './get-affiliate-settings.ts';
import { getAffiliateStats } from './get-affiliate-stats.ts';
import { getAffiliateTimeline } from './get-affiliate-timeline.ts';
import { getAffiliateUnpaidEarnings } from './get-affiliate-unpaid-earnings.ts';
import { storePreInstallData } from './store-pre-install-data.ts';
import { submitContactForm } from './submit-contact-form.ts';
import { updateAffiliatePaymentMethod } from './update-affiliate-payment-method.ts';
import { updateNotificationPreferences } from './update-notification-preferences.ts';

/** Every server function, registered as POST /api/fn/<name>. */
export const callables = [
  submitContactForm,
  storePreInstallData,
  createAffiliate,
  generateReferralCode,
  getAffiliateStats,
  getActiveVisitors,
  getAffiliateTimeline,
  getAffiliatePaymentMethod,
  updateAffiliatePaymentMethod,
  getAffiliatePayouts,
  getAffiliateUnpaidEarnings,
  getAffiliateSettings,
  updateNotificationPreferences,
  deleteAffiliateAccount,
  ...attributionCallables,
  ...payoutCallables,
  ...rewardCallables,
  ...adminCallables,
  ...webhookCallables,
] as const satisfies readonly RegisteredCallable[];

/** Functions of the shared contract that no definition above serves: none, or this does not compile. */
type Unserved = Exclude<CallableName, (typeof callables)[number]['name']>;
export const EVERY_CONTRACT_FUNCTION_SERVED: [Unserved] extends [never] ? true : Unserved = true;
