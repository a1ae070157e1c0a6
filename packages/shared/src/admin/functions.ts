import type {
  AdminGetAffiliateRequest,
  AdminGetOverviewRequest,
  AdminGetWebVitalsRequest,
  AdminListAffiliatesRequest,
  AdminListAuditLogRequest,
  AdminListConversionsRequest,
  AdminListTicketsRequest,
  AdminMarkTicketHandledRequest,
  AdminReverseConversionRequest,
  AdminSetAffiliateStatusRequest,
} from './schemas.ts';
import type {
  AdminAffiliateDetail,
  AdminAffiliateStatusResult,
  AdminAffiliateSummary,
  AdminAuditEntry,
  AdminConversion,
  AdminConversionReversal,
  AdminOverview,
  AdminPage,
  AdminTicket,
  AdminWebVitals,
} from './responses.ts';
import type { ReviewFunctions } from './review.ts';

// The operator console's server functions (docs/product/routes-and-screens.md#operator-console), `access: 'admin'`: without a session they
// answer `unauthenticated`, for anyone but an operator `permission-denied`.

export interface AdminFunctions extends ReviewFunctions {
  /** The console's first screen: the programme's figures, the next payday, 12 months, what needs action. */
  adminGetOverview: { request: AdminGetOverviewRequest; response: AdminOverview };
  /** Search by name, e-mail, company or code; filter by status (disabled, deleted too); newest first. */
  adminListAffiliates: { request: AdminListAffiliatesRequest; response: AdminPage<AdminAffiliateSummary> };
  /** Profile, statistics (as the affiliate's dashboard shows them) and payouts. `not-found` for an unknown id. */
  adminGetAffiliate: { request: AdminGetAffiliateRequest; response: AdminAffiliateDetail };
  /**
   * approve (pending or refused → active) and refuse (pending → refused) e-mail the decision;
   * disable bans the sign-in account and ends its sessions, enable lifts the ban. A change that
   * changes nothing is `failed-precondition` (details.code `no-change`); an operator cannot disable
   * themselves (`cannot-disable-self`); a deleted account cannot change (`affiliate-deleted`).
   */
  adminSetAffiliateStatus: { request: AdminSetAffiliateStatusRequest; response: AdminAffiliateStatusResult };
  /** Filter by status, affiliate, code and UTC days of `occurredAt`; newest first. */
  adminListConversions: { request: AdminListConversionsRequest; response: AdminPage<AdminConversion> };
  /** Reverses a commission with a reason (a paid one becomes a deduction from the next payout). */
  adminReverseConversion: { request: AdminReverseConversionRequest; response: AdminConversionReversal };
  /** Support tickets from the contact form, newest first, by status. */
  adminListTickets: { request: AdminListTicketsRequest; response: AdminPage<AdminTicket> };
  adminMarkTicketHandled: { request: AdminMarkTicketHandledRequest; response: AdminTicket };
  /** p75 per page and metric over the last `days` days (default 7). */
  adminGetWebVitals: { request: AdminGetWebVitalsRequest; response: AdminWebVitals };
  /** Newest first; `action` filters by an action or its beginning. */
  adminListAuditLog: { request: AdminListAuditLogRequest; response: AdminPage<AdminAuditEntry> };
}
