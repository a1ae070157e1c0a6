import {
  CLICK_BURST_MAX_CLICKS,
  CLICK_BURST_WINDOW_MINUTES,
  DATA_CENTRE_MAX_VISITS,
  REFUND_RATE_MIN_CONVERSIONS,
  REFUND_RATE_THRESHOLD_PERCENT,
  type SelfReferralMatch,
} from '@skanova/shared/admin/review';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { TransactionQuery } from '../db/transaction.ts';
import type { AppServices } from '../services.ts';
import { DATA_CENTRE_AGENT_PATTERN } from './data-centre-agents.ts';
import { type RaisedSignal, type ReviewApp, raiseSignal } from './review.ts';

// The fraud signals (docs/product/review.md#signals), each computed when what it is about arrives —
// a visit, an attribution, a conversion, a refund, a payout method, a signup — in the transaction
// that records it, with its evidence: counts, dates, codes and internal ids, never a raw e-mail, IP
// or account number. Personal identifiers are compared as keyed hashes (`hashIdentifier`, the key of
// the IP hashes, IP_HASH_SECRET): the same value hashes the same, and the hash reveals nothing.

type HashApp = Pick<AppServices, 'hashIdentifier'>;

// ---------------------------------------------------------------------------------------------
// Keyed hashes of the affiliate's identity and payout account.

/** The e-mail address, trimmed and lower-case, as a keyed hash. */
export function emailHash(app: HashApp, email: string): string {
  return app.hashIdentifier(`email:${email.trim().toLowerCase()}`);
}

/** The payout account: a PayPal address lower-case, or an IBAN without spaces upper-case, as a keyed hash. */
export function payoutAccountHash(
  app: HashApp,
  account: { type: 'paypal'; paypalEmail: string } | { type: 'bank_transfer'; iban: string },
): string {
  return account.type === 'paypal'
    ? app.hashIdentifier(`paypal:${account.paypalEmail.trim().toLowerCase()}`)
    : app.hashIdentifier(`iban:${account.iban.replace(/\s+/g, '').toUpperCase()}`);
}

// ---------------------------------------------------------------------------------------------
// Self-referral.

interface InstallIdentityRow {
  affiliate_id: string | null;
  install_ip_hash: string | null;
  visit_ip_hash: string | null;
  visitor_key: string | null;
  self_visit: boolean | null;
  code: string | null;
  created_at: Date | string;
  signup_ip_hash: string | null;
  signup_device_hash: string | null;
  email_hash: string | null;
}

/**
 * The converting app user's install against the affiliate's own hashed identity: the install's or
 * its visit's IP hash against the signup IP hash, its visit's browser against the signup browser,
 * a visit from the affiliate's own signed-in browser, and (when RevenueCat gives one) the app user's
 * e-mail hash against the affiliate's. Raised at attribution and again at conversion (the e-mail
 * arrives then); one signal per install.
 */
export async function checkSelfReferral(
  tx: TransactionQuery,
  app: ReviewApp,
  input: { installId: string; appUserEmailHash?: string | null; at: Date },
): Promise<RaisedSignal | null> {
  const { rows } = await tx.query<InstallIdentityRow>(
    `SELECT i.affiliate_id, i.ip_hash AS install_ip_hash, v.ip_hash AS visit_ip_hash, v.visitor_key, v.self_visit,
            r.code, i.created_at, a.signup_ip_hash, a.signup_device_hash, a.email_hash
     FROM installs i
     JOIN affiliates a ON a.id = i.affiliate_id
     LEFT JOIN clicks v ON v.id = i.click_id
     LEFT JOIN referral_codes r ON r.id = i.referral_code_id
     WHERE i.id = $1`,
    [input.installId],
  );
  const row = rows[0];
  if (!row?.affiliate_id) return null;
  const matches: SelfReferralMatch[] = [];
  if (row.signup_ip_hash && (row.signup_ip_hash === row.install_ip_hash || row.signup_ip_hash === row.visit_ip_hash))
    matches.push('signup-ip');
  if (row.signup_device_hash && row.signup_device_hash === row.visitor_key) matches.push('signup-device');
  if (row.self_visit) matches.push('signed-in-browser');
  if (row.email_hash && input.appUserEmailHash && row.email_hash === input.appUserEmailHash) matches.push('email');
  if (matches.length === 0) return null;
  return raiseSignal(tx, app, {
    affiliateId: row.affiliate_id,
    kind: 'self-referral',
    evidence: {
      kind: 'self-referral',
      matches,
      code: row.code,
      at: new Date(row.created_at).toISOString(),
      installId: input.installId,
    },
    dedupeKey: `self-referral:install:${input.installId}`,
    installId: input.installId,
    at: input.at,
  });
}

/**
 * A visit from the signed-in browser of the affiliate who owns the visited code: the visit is marked
 * (an install attributed to it is a self-referral) and a signal is raised, once per code and day.
 * `affiliateId` is the signed-in caller's profile; nothing happens for anyone else's code.
 */
export async function markSelfVisit(
  tx: TransactionQuery,
  app: ReviewApp,
  input: { trackingId: string; affiliateId: string; at: Date },
): Promise<RaisedSignal | null> {
  const { rows } = await tx.query<{ code: string; created_at: Date | string }>(
    `UPDATE clicks v SET self_visit = true
     FROM referral_codes r
     WHERE v.tracking_id = $1 AND r.id = v.referral_code_id AND r.affiliate_id = $2
     RETURNING r.code, v.created_at`,
    [input.trackingId, input.affiliateId],
  );
  const visit = rows[0];
  if (!visit) return null;
  const at = new Date(visit.created_at).toISOString();
  return raiseSignal(tx, app, {
    affiliateId: input.affiliateId,
    kind: 'self-referral',
    evidence: { kind: 'self-referral', matches: ['signed-in-browser'], code: visit.code, at, installId: null },
    dedupeKey: `self-referral:visit:${visit.code}:${at.slice(0, 10)}`,
    at: input.at,
  });
}

// ---------------------------------------------------------------------------------------------
// The same payout account on several affiliates.

/**
 * The affiliate's payout account hash against every other affiliate's (not deleted): when others
 * have it, a signal is raised on each affiliate that shares it (once per account and affiliate).
 */
export async function checkSharedPayoutAccount(
  tx: TransactionQuery,
  app: ReviewApp,
  input: { affiliateId: string; at: Date },
): Promise<RaisedSignal[]> {
  const { rows } = await tx.query<{ affiliate_id: string; type: 'paypal' | 'bank_transfer'; hash: string }>(
    `SELECT m.affiliate_id, m.type, m.payout_account_hash AS hash
     FROM payment_methods m JOIN affiliates a ON a.id = m.affiliate_id AND a.deleted_at IS NULL
     WHERE m.payout_account_hash = (SELECT payout_account_hash FROM payment_methods WHERE affiliate_id = $1)
     ORDER BY m.affiliate_id`,
    [input.affiliateId],
  );
  if (rows.length < 2) return [];
  const raised: RaisedSignal[] = [];
  for (const row of rows) {
    const signal = await raiseSignal(tx, app, {
      affiliateId: row.affiliate_id,
      kind: 'shared-payout-account',
      evidence: {
        kind: 'shared-payout-account',
        method: row.type,
        affiliateCount: rows.length,
        otherAffiliateIds: rows.filter((other) => other.affiliate_id !== row.affiliate_id).map((o) => o.affiliate_id),
      },
      // A new affiliate joining the account later is a new occurrence for everyone.
      dedupeKey: `shared-payout-account:${row.hash}:${rows.length}`,
      at: input.at,
    });
    if (signal) raised.push(signal);
  }
  return raised;
}

// ---------------------------------------------------------------------------------------------
// Click bursts.

interface BurstRow {
  affiliate_id: string;
  clicks: number;
  codes: string[] | string;
  first_at: Date | string;
  last_at: Date | string;
}

function codesOf(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  // A driver that hands over a text array as its literal: {A,B}.
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

type BurstSource = 'ip' | 'device' | 'data-centre';

interface BurstProbe {
  affiliate_id: string;
  ip_seen: boolean;
  device_seen: boolean;
  ip_clicks: number;
  device_clicks: number;
}

/**
 * The visits on an affiliate's codes within the window ($2, $3] that match `condition`: the affiliate is
 * `affiliate` (a column or a parameter).
 */
const burstVisits = (affiliate: string, condition: string) =>
  `FROM clicks v JOIN referral_codes r ON r.id = v.referral_code_id
   WHERE r.affiliate_id = ${affiliate} AND v.created_at > $2 AND v.created_at <= $3 AND ${condition}`;

/**
 * After a visit to `code`: more than CLICK_BURST_MAX_CLICKS counted clicks on the code's affiliate's
 * codes within CLICK_BURST_WINDOW_MINUTES from the visit's IP hash, or from its device (visitor key);
 * or more than DATA_CENTRE_MAX_VISITS visits (counted or not) from data-centre user agents. One
 * signal per source and UTC day.
 *
 * It runs on the landing page's hot path, once per counted visit, so the usual visit costs one
 * statement outside any transaction (`probe`): whether each source was raised today, and its clicks
 * counted from the source's own index (`clicks_ip_hash_idx`, `clicks_visitor_key_idx`,
 * migrations/0014_visit_burst_index.sql) only up to one past the threshold. Only a source that crosses
 * it opens a transaction (`raise`) to gather the evidence and raise the signal.
 * (docs/benchmarks.md § Click recording.)
 */
export async function checkClickBurst(
  probe: TransactionQuery,
  raise: <T>(work: (tx: TransactionQuery) => Promise<T>) => Promise<T>,
  app: ReviewApp,
  input: { code: string; ipHash: string; visitorKey: string; dataCentre: boolean; at: Date },
): Promise<RaisedSignal[]> {
  const since = new Date(input.at.getTime() - CLICK_BURST_WINDOW_MINUTES * 60_000).toISOString();
  const until = input.at.toISOString();
  const day = until.slice(0, 10);
  const dedupeKey = (source: BurstSource) => `click-burst:${source}:${day}`;
  const upTo = (condition: string, max: number) =>
    `(SELECT count(*)::int FROM (SELECT 1 ${burstVisits('o.affiliate_id', condition)} LIMIT ${max + 1}) AS recent)`;
  const seen = (parameter: string) =>
    `EXISTS (SELECT 1 FROM review_signals s WHERE s.affiliate_id = o.affiliate_id AND s.dedupe_key = ${parameter})`;
  const { rows } = await probe.query<BurstProbe>(
    `SELECT o.affiliate_id, ${seen('$6')} AS ip_seen, ${seen('$7')} AS device_seen,
            ${upTo('v.counted AND v.ip_hash = $4', CLICK_BURST_MAX_CLICKS)} AS ip_clicks,
            ${upTo('v.counted AND v.visitor_key = $5', CLICK_BURST_MAX_CLICKS)} AS device_clicks
     FROM referral_codes o WHERE o.code = $1`,
    [input.code, since, until, input.ipHash, input.visitorKey, dedupeKey('ip'), dedupeKey('device')],
  );
  const found = rows[0];
  if (!found) return [];
  const crossed: { source: BurstSource; condition: string; value: string; max: number }[] = [];
  if (!found.ip_seen && found.ip_clicks > CLICK_BURST_MAX_CLICKS)
    crossed.push({
      source: 'ip',
      condition: 'v.counted AND v.ip_hash = $4',
      value: input.ipHash,
      max: CLICK_BURST_MAX_CLICKS,
    });
  if (!found.device_seen && found.device_clicks > CLICK_BURST_MAX_CLICKS)
    crossed.push({
      source: 'device',
      condition: 'v.counted AND v.visitor_key = $4',
      value: input.visitorKey,
      max: CLICK_BURST_MAX_CLICKS,
    });
  // A data centre's visits are few and not counted: they are looked at only when one arrives.
  if (input.dataCentre)
    crossed.push({
      source: 'data-centre',
      condition: 'v.user_agent ~* $4',
      value: DATA_CENTRE_AGENT_PATTERN,
      max: DATA_CENTRE_MAX_VISITS,
    });
  if (crossed.length === 0) return [];
  return raise(async (tx) => {
    const raised: RaisedSignal[] = [];
    for (const { source, condition, value, max } of crossed) {
      const { rows: bursts } = await tx.query<BurstRow>(
        `SELECT r.affiliate_id, count(*)::int AS clicks, array_agg(DISTINCT r.code ORDER BY r.code) AS codes,
                min(v.created_at) AS first_at, max(v.created_at) AS last_at
         ${burstVisits('$1', condition)}
         GROUP BY r.affiliate_id`,
        [found.affiliate_id, since, until, value],
      );
      const burst = bursts[0];
      if (!burst || burst.clicks <= max) continue;
      const signal = await raiseSignal(tx, app, {
        affiliateId: burst.affiliate_id,
        kind: 'click-burst',
        evidence: {
          kind: 'click-burst',
          source,
          clicks: burst.clicks,
          threshold: max,
          windowMinutes: CLICK_BURST_WINDOW_MINUTES,
          codes: codesOf(burst.codes),
          from: new Date(burst.first_at).toISOString(),
          to: new Date(burst.last_at).toISOString(),
        },
        dedupeKey: dedupeKey(source),
        at: input.at,
      });
      if (signal) raised.push(signal);
    }
    return raised;
  });
}

// ---------------------------------------------------------------------------------------------
// Refund rate.

/**
 * After a refund: the affiliate's refunded first purchases (reversed, or clawed back once paid) over
 * their first purchases, above REFUND_RATE_THRESHOLD_PERCENT once there are at least
 * REFUND_RATE_MIN_CONVERSIONS first purchases. One signal per ten first purchases, so that a rate
 * that stays high after an approval is asked about again only as the volume grows.
 */
export async function checkRefundRate(
  tx: TransactionQuery,
  app: ReviewApp,
  input: { affiliateId: string; at: Date },
): Promise<RaisedSignal | null> {
  const { rows } = await tx.query<{ first_purchases: number; refunded: number }>(
    `SELECT count(*)::int AS first_purchases,
            count(*) FILTER (WHERE status = 'reversed' OR refunded_at IS NOT NULL)::int AS refunded
     FROM conversions WHERE affiliate_id = $1 AND kind = 'first-purchase'`,
    [input.affiliateId],
  );
  const { first_purchases: firstPurchases = 0, refunded = 0 } = rows[0] ?? {};
  if (firstPurchases < REFUND_RATE_MIN_CONVERSIONS) return null;
  // Integer arithmetic: over the threshold means refunded × 100 > threshold × first purchases.
  if (refunded * 100 <= REFUND_RATE_THRESHOLD_PERCENT * firstPurchases) return null;
  return raiseSignal(tx, app, {
    affiliateId: input.affiliateId,
    kind: 'refund-rate',
    evidence: {
      kind: 'refund-rate',
      refunded,
      firstPurchases,
      ratePercent: Math.round((refunded * 1000) / firstPurchases) / 10,
      thresholdPercent: REFUND_RATE_THRESHOLD_PERCENT,
      minimumConversions: REFUND_RATE_MIN_CONVERSIONS,
    },
    dedupeKey: `refund-rate:${Math.floor(firstPurchases / 10)}`,
    at: input.at,
  });
}

// ---------------------------------------------------------------------------------------------
// Disposable e-mail domains.

/**
 * The disposable-address domains of the `disposable-email-domains-js` package (CC0-1.0; its list
 * ships in the package: nothing is fetched at run time; ADR 027), read once.
 */
const disposableDomains: ReadonlySet<string> = new Set(disposableEmailBlocklist().map((d) => d.toLowerCase()));

/** The address's domain when it is a disposable-address service's (or a subdomain of one), else null. */
export function disposableDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const labels = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.');
  for (let i = 0; i < labels.length - 1; i += 1) {
    const domain = labels.slice(i).join('.');
    if (disposableDomains.has(domain)) return domain;
  }
  return null;
}

/** At signup: the signup e-mail's domain against the disposable-address services. */
export async function checkDisposableEmail(
  tx: TransactionQuery,
  app: ReviewApp,
  input: { affiliateId: string; email: string; at: Date },
): Promise<RaisedSignal | null> {
  const domain = disposableDomainOf(input.email);
  if (domain === null) return null;
  return raiseSignal(tx, app, {
    affiliateId: input.affiliateId,
    kind: 'disposable-email',
    evidence: { kind: 'disposable-email', domain },
    dedupeKey: 'disposable-email',
    at: input.at,
  });
}
