import type { PaymentMethodSummary, SignupPaymentChoice } from './payment-method.ts';
import type {
  CreateAffiliateRequest,
  CreateAffiliateResponse,
  GenerateReferralCodeRequest,
  NotificationPreferences,
} from './schemas.ts';
import type {
  ActiveVisitors,
  AffiliateSettings,
  AffiliateStats,
  AffiliateTimeline,
  PayoutSummary,
  UnpaidEarnings,
} from './stats.ts';

// The affiliate's server functions (docs/product/calls-and-data.md#server-functions): signup, then `access: 'affiliate'` — the
// caller's own data only. `request: null` functions take no payload (callable/schemas.ts).

export interface AffiliateFunctions {
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
  /** The unpaid earnings by where they stand: why the next payday pays less (the Payments tab). */
  getAffiliateUnpaidEarnings: { request: null; response: UnpaidEarnings };
  getAffiliateSettings: { request: null; response: AffiliateSettings };
  updateNotificationPreferences: {
    request: NotificationPreferences;
    response: { notifications: NotificationPreferences };
  };
  /** Refused (failed-precondition, details.code `payout-scheduled` | `balance-due`) while money is owed. */
  deleteAffiliateAccount: { request: { password: string }; response: { deleted: true } };
}
