import type { RegisteredCallable } from '../../http/callable.ts';
import { adminGetAffiliate } from './admin-get-affiliate.ts';
import { adminGetOverview } from './admin-get-overview.ts';
import { adminGetWebVitals } from './admin-get-web-vitals.ts';
import { adminListAffiliates } from './admin-list-affiliates.ts';
import { adminListAuditLog } from './admin-list-audit-log.ts';
import { adminListConversions } from './admin-list-conversions.ts';
import { adminListTickets } from './admin-list-tickets.ts';
import { adminMarkTicketHandled } from './admin-mark-ticket-handled.ts';
import { adminReverseConversion } from './admin-reverse-conversion.ts';
import { adminSetAffiliateStatus } from './admin-set-affiliate-status.ts';
import { adminDecideReviewCase } from './admin-decide-review-case.ts';
import { adminGetReviewCase } from './admin-get-review-case.ts';
import { adminGetReviewPolicies } from './admin-get-review-policies.ts';
import { adminListReviewCases } from './admin-list-review-cases.ts';
import { adminSetReviewPolicy } from './admin-set-review-policy.ts';

/** The operator console's functions (access: admin). */
export const adminCallables = [
  adminGetOverview,
  adminListAffiliates,
  adminGetAffiliate,
  adminSetAffiliateStatus,
  adminListConversions,
  adminReverseConversion,
  adminListTickets,
  adminMarkTicketHandled,
  adminGetWebVitals,
  adminListAuditLog,
  adminListReviewCases,
  adminGetReviewCase,
  adminDecideReviewCase,
  adminGetReviewPolicies,
  adminSetReviewPolicy,
] as const satisfies readonly RegisteredCallable[];
