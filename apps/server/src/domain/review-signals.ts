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

/** Where a click burst comes from: one IP hash, one device (visitor key), or data-centre user agents. */
export type BurstSource = 'ip' | 'device' | 'data-centre';

/** The threshold of each source: a burst is more visits than this within the window. */
const BURST_THRESHOLD: Record<BurstSource, number> = {
  ip: CLICK_BURST_MAX_CLICKS,
  device: CLICK_BURST_MAX_CLICKS,
  'data-centre': DATA_CENTRE_MAX_VISITS,
};

/** A stored visit of a referral code, as the click-burst check reads it. */
export interface BurstVisit {
  code: string;
  /** The counted click of its code, visitor and hour. */
  counted: boolean;
  ipHash: string;
  visitorKey: string;
  /** From a data centre's user agent (`isDataCentreAgent`). */
  dataCentre: boolean;
}

/**
 * The sources whose click-burst signal the database said was raised today, by code (a code always
 * names the same affiliate, whose signal it is): a visit of such a code asks nothing about that source
 * for the rest of the UTC day. The database stays the truth: what is not here is asked, and another
 * process's signal is learnt from its answer.
 */
export class RaisedBurstsToday {
  #day = '';
  #raised = new Set<string>();

  has(day: string, source: BurstSource, code: string): boolean {
    return day === this.#day && this.#raised.has(`${source}\n${code}`);
  }

  add(day: string, source: BurstSource, code: string): void {
    if (day !== this.#day) {
      this.#day = day;
      this.#raised = new Set();
    }
    this.#raised.add(`${source}\n${code}`);
  }
}

interface BurstProbeRow {
  code: string;
  source: BurstSource;
  affiliate_id: string;
  raised: boolean;
  burst_clicks: number;
  burst_codes: string[] | string | null;
  first_at: Date | string | null;
  last_at: Date | string | null;
}

function codesOf(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  // A driver that hands over a text array as its literal: {A,B}.
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

/**
 * After a batch of visits is stored: more than CLICK_BURST_MAX_CLICKS counted clicks on a code's
 * affiliate's codes within CLICK_BURST_WINDOW_MINUTES from a visit's IP hash, or from its device
 * (visitor key); or more than DATA_CENTRE_MAX_VISITS visits (counted or not) from data-centre user
 * agents. One signal per affiliate, source and UTC day.
 *
 * It runs on the landing page's hot path, so a batch costs one statement, after the batch's commit
 * (of two batches committed at once, the later one's check sees both), and none when every source it
 * would ask about is known to be raised today (`raised`). That statement, `click_burst_probe`
 * (migrations/0015_click_burst_probe.sql, where the conditions of each source are written once),
 * answers only the sources raised today (remembered from then on) and those over their threshold,
 * with their evidence. Only those open a transaction (`raise`) to raise the signal.
 * (docs/benchmarks.md § Click recording.)
 */
export async function checkClickBursts(
  probe: TransactionQuery,
  raise: <T>(work: (tx: TransactionQuery) => Promise<T>) => Promise<T>,
  app: ReviewApp,
  raised: RaisedBurstsToday,
  input: { visits: readonly BurstVisit[]; at: Date },
): Promise<RaisedSignal[]> {
  const since = new Date(input.at.getTime() - CLICK_BURST_WINDOW_MINUTES * 60_000).toISOString();
  const until = input.at.toISOString();
  const day = until.slice(0, 10);
  const asked = new Map<string, { code: string; source: BurstSource; key: string }>();
  const ask = (code: string, source: BurstSource, key: string) => {
    if (!raised.has(day, source, code)) asked.set(`${code}\n${source}\n${key}`, { code, source, key });
  };
  for (const visit of input.visits) {
    if (visit.counted) {
      ask(visit.code, 'ip', visit.ipHash);
      ask(visit.code, 'device', visit.visitorKey);
    }
    // A data centre's visits are few and not counted: they are looked at only when one arrives.
    if (visit.dataCentre) ask(visit.code, 'data-centre', DATA_CENTRE_AGENT_PATTERN);
  }
  if (asked.size === 0) return [];
  const questions = [...asked.values()];
  const { rows } = await probe.query<BurstProbeRow>(
    `SELECT code, source, affiliate_id, raised, burst_clicks, burst_codes, first_at, last_at
     FROM click_burst_probe($1::text[], $2::text[], $3::text[], $4, $5, $6, $7, $8)`,
    [
      questions.map((q) => q.code),
      questions.map((q) => q.source),
      questions.map((q) => q.key),
      since,
      until,
      day,
      CLICK_BURST_MAX_CLICKS,
      DATA_CENTRE_MAX_VISITS,
    ],
    { name: 'click-burst-probe' },
  );
  // One signal per affiliate and source: the first source over its threshold gives the evidence.
  const bursts = new Map<string, BurstProbeRow>();
  const codesOfBurst = new Map<string, string[]>();
  for (const row of rows) {
    if (row.raised) {
      raised.add(day, row.source, row.code);
      continue;
    }
    if (row.burst_clicks <= BURST_THRESHOLD[row.source]) continue;
    const key = `${row.affiliate_id}\n${row.source}`;
    if (!bursts.has(key)) bursts.set(key, row);
    codesOfBurst.set(key, [...(codesOfBurst.get(key) ?? []), row.code]);
  }
  const signals: RaisedSignal[] = [];
  for (const [key, burst] of bursts) {
    const signal = await raise((tx) =>
      raiseSignal(tx, app, {
        affiliateId: burst.affiliate_id,
        kind: 'click-burst',
        evidence: {
          kind: 'click-burst',
          source: burst.source,
          clicks: burst.burst_clicks,
          threshold: BURST_THRESHOLD[burst.source],
          windowMinutes: CLICK_BURST_WINDOW_MINUTES,
          codes: codesOf(burst.burst_codes),
          from: new Date(burst.first_at ?? until).toISOString(),
          to: new Date(burst.last_at ?? until).toISOString(),
        },
        dedupeKey: `click-burst:${burst.source}:${day}`,
        at: input.at,
      }),
    );
    // Raised now, or already (another batch, another process): either way, asked no more today.
    for (const code of codesOfBurst.get(key) ?? []) raised.add(day, burst.source, code);
    if (signal) signals.push(signal);
  }
  return signals;
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
