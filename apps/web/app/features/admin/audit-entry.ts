// The audit log in words (docs/product/routes-and-screens.md#operator-console): each entry the server
// writes (`action`, `subject`, `details`: docs/product/money.md#audit) becomes what happened, in a
// sentence of the `admin` namespace, and its facts and changes (before → after) as typed values the
// page writes in the reader's language. Nothing here is translated: keys and values only, so that the
// whole of it is tested without a page. An action it does not know is still shown, field by field.

/** A value of an entry, as the page writes it. */
export type AuditValue =
  /** Data written as it is: a reason, an e-mail address, a host, a name. */
  | { kind: 'text'; text: string }
  /** An identifier: a code, a group id, an event type. */
  | { kind: 'code'; text: string }
  /** A word of the interface: an i18n key (of the `admin` namespace unless it names its own). */
  | { kind: 'word'; key: string }
  | { kind: 'money'; cents: number; currency?: string }
  | { kind: 'day'; iso: string }
  | { kind: 'time'; iso: string }
  | { kind: 'count'; value: number }
  | { kind: 'days'; value: number }
  | { kind: 'percent'; basisPoints: number }
  | { kind: 'yes-no'; value: boolean }
  | { kind: 'list'; values: AuditValue[] };

/**
 * One line of an entry: a fact (`value`), or a change (`before` → `after`). `field` is a key of
 * `admin:audit.fields`, or, for an action this module does not know, the detail's own name
 * (`known: false`: the page shows it as it is).
 */
export interface AuditLine {
  field: string;
  known: boolean;
  value?: AuditValue;
  before?: AuditValue;
  after?: AuditValue;
}

export interface AuditEntryView {
  /** The key of the sentence under `admin:audit.actions`, or null for an action not known here. */
  action: string | null;
  lines: AuditLine[];
}

export interface AuditEntryInput {
  action: string;
  subject: string | null;
  details: unknown;
}

type Details = Record<string, unknown>;

const text = (value: unknown): AuditValue | undefined =>
  typeof value === 'string' && value !== '' ? { kind: 'text', text: value } : undefined;
const code = (value: unknown): AuditValue | undefined =>
  typeof value === 'string' && value !== '' ? { kind: 'code', text: value } : undefined;
const money = (value: unknown, currency?: unknown): AuditValue | undefined =>
  typeof value === 'number'
    ? { kind: 'money', cents: value, ...(typeof currency === 'string' ? { currency } : {}) }
    : undefined;
const count = (value: unknown): AuditValue | undefined =>
  typeof value === 'number' ? { kind: 'count', value } : undefined;
const time = (value: unknown): AuditValue | undefined =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? { kind: 'time', iso: value } : undefined;
const day = (value: unknown): AuditValue | undefined =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? { kind: 'day', iso: value } : undefined;
/** A word of a closed list: the key when the value is one of them, else the value as it is. */
const word = (prefix: string, values: readonly string[], value: unknown): AuditValue | undefined => {
  if (typeof value !== 'string' || value === '') return undefined;
  return values.includes(value) ? { kind: 'word', key: `${prefix}.${value}` } : { kind: 'code', text: value };
};

const AFFILIATE_STATUSES = ['pending', 'active', 'refused', 'disabled', 'deleted'] as const;
const PAYOUT_STATUSES = ['scheduled', 'sent', 'paid', 'failed'] as const;
const PAYMENT_METHODS = ['paypal', 'bank_transfer'] as const;
const REVIEW_SIGNALS = ['self-referral', 'shared-payout-account', 'click-burst', 'refund-rate', 'disposable-email'];
const REVIEW_POLICIES = ['flag', 'hold'] as const;
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const affiliateStatus = (value: unknown) => word('affiliates.statuses', AFFILIATE_STATUSES, value);
const payoutStatus = (value: unknown) => word('payouts.statuses', PAYOUT_STATUSES, value);
/** A payment method; none (null) is "not set up". */
const paymentMethod = (value: unknown): AuditValue =>
  word('payment:methods', PAYMENT_METHODS, value) ?? { kind: 'word', key: 'audit.values.noMethod' };

/** A fact line, left out when the value is missing. */
function fact(field: string, value: AuditValue | undefined): AuditLine[] {
  return value ? [{ field, known: true, value }] : [];
}

/** A change line, left out when both sides are missing or equal. */
function change(field: string, before: AuditValue | undefined, after: AuditValue | undefined): AuditLine[] {
  if (!before && !after) return [];
  if (before && after && JSON.stringify(before) === JSON.stringify(after)) return fact(field, after);
  return [{ field, known: true, ...(before ? { before } : {}), ...(after ? { after } : {}) }];
}

/** The status an operator's decision on an affiliate leads to (the audit entry records where it came from). */
function decisionChange(action: string, details: Details): AuditLine[] {
  const wasDisabled = details.wasDisabled === true;
  const before = wasDisabled ? affiliateStatus('disabled') : affiliateStatus(details.previousStatus);
  const previous = typeof details.previousStatus === 'string' ? details.previousStatus : undefined;
  const after: Record<string, AuditValue | undefined> = {
    'affiliate.approved': affiliateStatus('active'),
    'affiliate.refused': affiliateStatus('refused'),
    'affiliate.disabled': affiliateStatus('disabled'),
    'affiliate.enabled': affiliateStatus(previous),
  };
  return [...change('status', before, after[action]), ...fact('reason', text(details.reason))];
}

/** A rule version's terms (rule.published), in the order the rule is written. */
function ruleTerms(details: Details): AuditLine[] {
  const tiers = Array.isArray(details.tiers) ? (details.tiers as { from?: unknown; cents?: unknown }[]) : [];
  const steps = tiers.flatMap((tier): AuditValue[] =>
    typeof tier.from === 'number' && typeof tier.cents === 'number'
      ? [
          {
            kind: 'list',
            values: [money(tier.cents)!, { kind: 'word', key: 'audit.values.fromConversions' }, count(tier.from)!],
          },
        ]
      : [],
  );
  return [
    ...fact('version', count(details.version)),
    ...fact('effectiveFrom', time(details.effectiveFrom)),
    ...fact('ruleKind', word('rules.publish.kinds', ['flat', 'percentage'], details.kind)),
    ...(steps.length > 0 ? fact('steps', { kind: 'list', values: steps }) : []),
    ...fact(
      'percent',
      typeof details.percentBasisPoints === 'number'
        ? { kind: 'percent', basisPoints: details.percentBasisPoints }
        : undefined,
    ),
    ...fact('recurringMonths', count(details.recurringMonths)),
    ...fact('hold', typeof details.holdDays === 'number' ? { kind: 'days', value: details.holdDays } : undefined),
    ...fact('minimum', money(details.minimumPayoutCents)),
  ];
}

/** A campaign rate's range and rate. */
function campaignRate(details: Details): AuditLine[] {
  const rate =
    details.kind === 'percentage' && typeof details.percentBasisPoints === 'number'
      ? ({ kind: 'percent', basisPoints: details.percentBasisPoints } as const)
      : money(details.amountCents);
  return [
    ...fact('campaignRate', count(Number(details.campaignRateId) || undefined)),
    ...fact('startsAt', day(details.startsAt)),
    ...fact('endsAt', day(details.endsAt)),
    ...fact('rate', rate),
  ];
}

const eventTypes = (value: unknown): AuditValue | undefined =>
  Array.isArray(value) && value.length > 0
    ? {
        kind: 'list',
        values: value.filter((item): item is string => typeof item === 'string').map((item) => code(item)!),
      }
    : undefined;

/** What each action's details say, in lines. */
const ACTIONS: Record<string, (details: Details, subject: string | null) => AuditLine[]> = {
  'affiliate.signup': (d) => [
    ...fact('status', affiliateStatus(d.status)),
    ...fact('paymentMethod', paymentMethod(d.paymentMethod ?? null)),
  ],
  'affiliate.approved': (d) => decisionChange('affiliate.approved', d),
  'affiliate.refused': (d) => decisionChange('affiliate.refused', d),
  'affiliate.disabled': (d) => decisionChange('affiliate.disabled', d),
  'affiliate.enabled': (d) => decisionChange('affiliate.enabled', d),
  'affiliate.group-changed': (d) => change('group', code(d.from), code(d.to)),
  'affiliate.deleted': (d) => [
    ...fact('balance', money(d.balanceCents)),
    ...(d.reason === 'inactive' ? fact('reason', { kind: 'word', key: 'audit.values.inactive' }) : []),
    ...fact('lastActiveAt', time(d.lastActiveAt)),
  ],
  'payment_method.updated': (d) => [
    ...change('paymentMethod', paymentMethod(d.previousType ?? null), paymentMethod(d.type ?? null)),
    ...fact('ibanEnding', typeof d.ibanLast4 === 'string' ? { kind: 'code', text: `•••• ${d.ibanLast4}` } : undefined),
  ],
  'password.changed': () => [],
  'group.created': (d) => fact('name', text(d.name)),
  'group.renamed': (d) => change('name', text(d.from), text(d.to)),
  'group.archived': () => [],
  'rule.published': (d) => ruleTerms(d),
  'campaign-rate.created': (d) => campaignRate(d),
  'campaign-rate.deleted': (d) => campaignRate(d),
  'review.approved': (d) => reviewDecision(d),
  'review.rejected': (d) => reviewDecision(d),
  'review.banned': (d) => reviewDecision(d),
  'review.policy-changed': (d) => [
    ...fact('signal', word('review.kinds', REVIEW_SIGNALS, d.signal)),
    ...change(
      'policy',
      word('review.actions', REVIEW_POLICIES, d.previousAction),
      word('review.actions', REVIEW_POLICIES, d.action),
    ),
  ],
  'ticket.handled': () => [],
  'payouts.run': (d) => [
    ...fact('payoutsCreated', count(d.created)),
    ...fact('amountCreated', money(d.totalCents)),
    ...fact('belowMinimum', count(d.belowMinimum)),
    ...fact('withoutPaymentMethod', count(d.withoutPaymentMethod)),
    ...fact('paydayPayouts', count(d.payoutCount)),
    ...fact('paydayTotal', money(d.payoutTotalCents)),
  ],
  'payouts.export': (d) => [
    ...fact('exportKind', word('payouts.export.kinds', ['paypal', 'sepa'], d.kind)),
    ...fact('format', code(d.format)),
    ...fact('payday', day(d.payday)),
    ...fact('payouts', count(d.payoutCount)),
    ...fact('controlSum', money(d.controlSumCents, d.currency)),
    ...fact('exchangeRate', code(d.exchangeRate)),
    ...fact('messageId', code(d.messageId)),
  ],
  'payout.sent': (d) => payoutChange('sent', d),
  'payout.paid': (d) => payoutChange('paid', d),
  'payout.failed': (d) => payoutChange('failed', d),
  'conversion.reversed': (d) => [...fact('commission', money(d.commissionCents)), ...fact('reason', text(d.reason))],
  'conversion.clawed-back': (d) => [...fact('commission', money(d.commissionCents)), ...fact('reason', text(d.reason))],
  'ledger.reconciled': (d) => [
    ...fact('differences', count(d.differences)),
    ...fact('affiliates', count(d.affiliates)),
  ],
  'ledger.exported': (d) => [...fact('entries', count(d.entries)), ...fact('summaryLines', count(d.summaryLines))],
  'webhook.endpoint-created': (d) => [...fact('host', text(d.host)), ...fact('events', eventTypes(d.eventTypes))],
  'webhook.endpoint-updated': (d) => webhookUpdate(d),
  'webhook.endpoint-disabled': (d) => webhookUpdate(d),
  'webhook.endpoint-enabled': (d) => webhookUpdate(d),
  'webhook.endpoint-deleted': (d) => fact('host', text(d.host)),
  'webhook.secret-rotated': (d) => fact('previousSecretUntil', time(d.previousValidUntil)),
  'webhook.delivery-replayed': (d) => [
    ...fact('event', code(d.eventId)),
    ...change('deliveryStatus', word('audit.values.delivery', DELIVERY_STATUSES, d.previousStatus), {
      kind: 'word',
      key: 'audit.values.delivery.pending',
    }),
  ],
  'operator.created': (d) => operator(d),
  'operator.promoted': (d) => operator(d),
};

function reviewDecision(details: Details): AuditLine[] {
  return [
    ...fact('commissions', count(details.commissions)),
    ...fact('amount', money(details.cents)),
    ...fact('reason', text(details.reason)),
  ];
}

function payoutChange(status: (typeof PAYOUT_STATUSES)[number], details: Details): AuditLine[] {
  return [
    ...change('status', payoutStatus(details.from), payoutStatus(status)),
    ...fact('amount', money(details.amountCents)),
    ...fact('reference', code(details.reference)),
    ...fact('reason', text(details.reason)),
  ];
}

function webhookUpdate(details: Details): AuditLine[] {
  const changed = Array.isArray(details.changed) ? details.changed.filter((item) => typeof item === 'string') : [];
  return [
    ...fact('host', text(details.host)),
    ...(changed.length > 0
      ? fact('changed', {
          kind: 'list',
          values: changed.map((item) => ({ kind: 'word', key: `audit.fields.${item}` }) as const),
        })
      : []),
    ...fact('events', eventTypes(details.eventTypes)),
  ];
}

function operator(details: Details): AuditLine[] {
  return [
    ...fact('email', text(details.email)),
    ...(details.unbanned === true ? fact('unbanned', { kind: 'yes-no', value: true }) : []),
    ...fact('linkExpiresAt', time(details.linkExpiresAt)),
  ];
}

/** An action not known here: each detail by its own name, its value as data (never as raw JSON). */
function generic(details: Details): AuditLine[] {
  return Object.entries(details).flatMap(([field, value]): AuditLine[] => {
    const shown: AuditValue | undefined =
      typeof value === 'number'
        ? { kind: 'count', value }
        : typeof value === 'boolean'
          ? { kind: 'yes-no', value }
          : typeof value === 'string'
            ? { kind: 'text', text: value }
            : value === null || value === undefined
              ? undefined
              : { kind: 'text', text: Array.isArray(value) ? value.map(String).join(', ') : JSON.stringify(value) };
    return shown ? [{ field, known: false, value: shown }] : [];
  });
}

/** The entry in words: the sentence's key and its lines. */
export function auditEntryView(entry: AuditEntryInput): AuditEntryView {
  const details =
    entry.details !== null && typeof entry.details === 'object' && !Array.isArray(entry.details)
      ? (entry.details as Details)
      : {};
  const known = ACTIONS[entry.action];
  if (known) return { action: entry.action, lines: known(details, entry.subject) };
  return { action: null, lines: generic(details) };
}

/** The actions this module writes in words (the i18n test checks each has its sentence in both languages). */
export const KNOWN_AUDIT_ACTIONS = Object.keys(ACTIONS);
