import * as z from 'zod/mini';
import { AFFILIATE_STATUSES } from '../affiliate/schemas.ts';
import { storableText } from '../callable/storable-text.ts';
import { VITALS_MAX_DAYS } from './vitals.ts';

// Inputs of the operator console's functions (docs/product/routes-and-screens.md#operator-console): every one bounded, so that a request
// can neither ask for an unbounded page nor reach the database with a value it cannot hold (free
// text passes the storable-text rule). The server validates with these schemas; the console's
// requests are typed by them.

/** Rows per page of the console's lists: default and ceiling. */
export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** Pages further than this are refused: a list that long is searched, not paged. */
const PAGE_MAX = 10_000;
/** A free-text search (name, e-mail, code) or an action prefix. */
export const ADMIN_SEARCH_MAX = 100;
/** An operator's reason (refusal, ban, reversal), kept in the audit log. */
export const ADMIN_REASON_MAX = 500;

/** Affiliate filters: the profile's status, or the account's state (disabled = banned, deleted). */
export const ADMIN_AFFILIATE_FILTERS = [...AFFILIATE_STATUSES, 'disabled', 'deleted'] as const;
export type AdminAffiliateFilter = (typeof ADMIN_AFFILIATE_FILTERS)[number];

export const ADMIN_AFFILIATE_ACTIONS = ['approve', 'refuse', 'disable', 'enable'] as const;
export type AdminAffiliateAction = (typeof ADMIN_AFFILIATE_ACTIONS)[number];

export const CONVERSION_STATUSES = ['pending', 'approved', 'paid', 'reversed'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

export const TICKET_STATUSES = ['open', 'handled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

const paging = {
  page: z.optional(z.int().check(z.minimum(1), z.maximum(PAGE_MAX))),
  pageSize: z.optional(z.int().check(z.minimum(1), z.maximum(ADMIN_PAGE_SIZE_MAX))),
};

const search = z.string().check(z.trim(), z.maxLength(ADMIN_SEARCH_MAX), storableText());
const reason = z.string().check(z.trim(), z.minLength(1), z.maxLength(ADMIN_REASON_MAX), storableText());
/** Affiliate ids are the auth library's generated ids. */
const affiliateId = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[\w-]+$/));
/** Conversion ids are bigint identities, sent as decimal text (within a safe JavaScript integer). */
const conversionId = z.string().check(z.regex(/^[1-9]\d{0,14}$/));
const day = z.iso.date();

export const adminListAffiliatesSchema = z.strictObject({
  query: z.optional(search),
  status: z.optional(z.enum(ADMIN_AFFILIATE_FILTERS)),
  ...paging,
});

export const adminGetAffiliateSchema = z.strictObject({ affiliateId });

export const adminSetAffiliateStatusSchema = z.strictObject({
  affiliateId,
  action: z.enum(ADMIN_AFFILIATE_ACTIONS),
  reason: z.optional(reason),
});

export const adminListConversionsSchema = z.strictObject({
  status: z.optional(z.enum(CONVERSION_STATUSES)),
  affiliateId: z.optional(affiliateId),
  code: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(32), storableText())),
  /** First and last UTC day of `occurredAt`, both included. */
  from: z.optional(day),
  to: z.optional(day),
  ...paging,
});

export const adminReverseConversionSchema = z.strictObject({ conversionId, reason });

export const adminListTicketsSchema = z.strictObject({
  status: z.optional(z.enum(TICKET_STATUSES)),
  ...paging,
});

export const adminMarkTicketHandledSchema = z.strictObject({ ticketId: z.uuid() });

export const adminGetWebVitalsSchema = z.strictObject({
  days: z.optional(z.int().check(z.minimum(1), z.maximum(VITALS_MAX_DAYS))),
});

/** The overview takes no input (an empty object or null, as the other no-argument functions). */
export const adminGetOverviewSchema = z.optional(z.nullable(z.strictObject({})));

export const adminListAuditLogSchema = z.strictObject({
  /** An action or its beginning ("affiliate." lists every affiliate action). */
  action: z.optional(search),
  ...paging,
});

export type AdminListAffiliatesRequest = z.input<typeof adminListAffiliatesSchema>;
export type AdminGetAffiliateRequest = z.input<typeof adminGetAffiliateSchema>;
export type AdminSetAffiliateStatusRequest = z.input<typeof adminSetAffiliateStatusSchema>;
export type AdminListConversionsRequest = z.input<typeof adminListConversionsSchema>;
export type AdminReverseConversionRequest = z.input<typeof adminReverseConversionSchema>;
export type AdminListTicketsRequest = z.input<typeof adminListTicketsSchema>;
export type AdminMarkTicketHandledRequest = z.input<typeof adminMarkTicketHandledSchema>;
export type AdminGetWebVitalsRequest = z.input<typeof adminGetWebVitalsSchema>;
export type AdminListAuditLogRequest = z.input<typeof adminListAuditLogSchema>;
export type AdminGetOverviewRequest = z.input<typeof adminGetOverviewSchema>;
