// Names of the callable server functions (BRIEF §3): `POST /api/fn/<name>`.
import type { z } from 'zod';
import type { contactRequestSchema, contactResponseSchema } from '../schemas/contact.ts';
import type { preInstallRequestSchema, preInstallResponseSchema } from '../schemas/pre-install.ts';
import type {
  CreateAffiliateRequest,
  CreateAffiliateResponse,
  GenerateReferralCodeRequest,
  NotificationPreferences,
} from '../schemas/affiliate.ts';
import type { PaymentMethodSummary, SignupPaymentChoice } from '../affiliate/payment-method.ts';
import type {
  ActiveVisitors,
  AffiliateSettings,
  AffiliateStats,
  AffiliateTimeline,
  PayoutSummary,
} from '../affiliate/stats.ts';

import type { AdminFunctions } from './admin-functions.ts';
import type { AttributionFunctions } from './attribution-functions.ts';
import type { PayoutFunctions } from './payout-functions.ts';

export const CALLABLE_PATH_PREFIX = '/api/fn/';

export interface CallableFunctions extends AttributionFunctions, AdminFunctions, PayoutFunctions {
  /** Signup: creates the account, the affiliate profile and the session in one transaction. */
  createAffiliate: { request: CreateAffiliateRequest; response: CreateAffiliateResponse };
  getAffiliateStats: { request: null; response: AffiliateStats };
  getActiveVisitors: { request: null; response: ActiveVisitors };
  getAffiliateTimeline: { request: null; response: AffiliateTimeline };
  getAffiliatePaymentMethod: { request: null; response: { success: true; paymentMethod: PaymentMethodSummary } };
  updateAffiliatePaymentMethod: {
    request: { paymentMethod: Exclude<SignupPaymentChoice, 'later'> | string; paymentDetails: Record<string, unknown> };
    response: { success: true; paymentMethod: PaymentMethodSummary };
  };
  generateReferralCode: {
    request: GenerateReferralCodeRequest;
    response: { code: string; description: string | null };
  };
  getAffiliatePayouts: { request: null; response: { payouts: PayoutSummary[] } };
  getAffiliateSettings: { request: null; response: AffiliateSettings };
  updateNotificationPreferences: {
    request: NotificationPreferences;
    response: { notifications: NotificationPreferences };
  };
  /** Refused (failed-precondition, details.code `payout-scheduled` | `balance-due`) while money is owed. */
  deleteAffiliateAccount: { request: { password: string }; response: { deleted: true } };
  storePreInstallData: {
    request: z.input<typeof preInstallRequestSchema>;
    response: z.infer<typeof preInstallResponseSchema>;
  };
  submitContactForm: {
    request: z.input<typeof contactRequestSchema>;
    response: z.infer<typeof contactResponseSchema>;
  };
}

export type CallableName = keyof CallableFunctions;
