import { CAMPAIGN_RATES_PER_CODE_MAX } from '@skanova/shared/rewards/constants';
import type { AdminCampaignRate } from '@skanova/shared/rewards/functions';
import type {
  AdminCreateCampaignRateRequest,
  AdminDeleteCampaignRateRequest,
  AdminListCampaignRatesRequest,
} from '@skanova/shared/rewards/schemas';
import type { AppContext, SignedInUser } from '../../context.ts';
import { type SqlBigint, centsValue } from '../../db/rows.ts';
import { type TransactionQuery, inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { refusal } from './refusal.ts';

// Campaign rates (docs/product/money.md#partner-groups-and-reward-rules,
// docs/product/money.md#operators-groups-rules-and-campaigns): a referral code's own flat amount or
// percentage for whole UTC days, pricing the first purchases made through it in that range instead of
// the group's rule. A code's ranges never overlap — checked under the code row's lock, so two
// operators cannot add overlapping ranges at once — and a rate never reaches back: it starts today at
// the earliest, and not before the moment it is created. A rate that priced a commission stays: the
// commission names it.

const DAY_MS = 24 * 60 * 60 * 1000;

interface RateRow {
  id: string;
  code: string;
  starts_at: Date | string;
  ends_at: Date | string;
  kind: 'flat' | 'percentage';
  amount_cents: SqlBigint | null;
  percent_basis_points: number | null;
  created_at: Date | string;
  commissions: number;
}

const RATE_COLUMNS = `c.id::text AS id, k.code, c.starts_at, c.ends_at, c.kind, c.amount_cents, c.percent_basis_points,
       c.created_at, (SELECT count(*)::int FROM conversions v WHERE v.campaign_rate_id = c.id) AS commissions`;

const iso = (value: Date | string) => new Date(value).toISOString();

function rateOf(row: RateRow): AdminCampaignRate {
  return {
    id: row.id,
    code: row.code,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    kind: row.kind,
    amountCents: row.amount_cents === null ? null : centsValue(row.amount_cents),
    percentBasisPoints: row.percent_basis_points,
    createdAt: iso(row.created_at),
    commissions: row.commissions,
  };
}

async function readRate(db: TransactionQuery, id: string): Promise<AdminCampaignRate> {
  const { rows } = await db.query<RateRow>(
    `SELECT ${RATE_COLUMNS} FROM campaign_rates c JOIN referral_codes k ON k.id = c.referral_code_id WHERE c.id = $1`,
    [id],
  );
  return rateOf(rows[0]!);
}

/** Every campaign rate of the affiliate's codes, by code, then by start. */
export async function listCampaignRates(
  app: AppContext,
  input: AdminListCampaignRatesRequest,
): Promise<AdminCampaignRate[]> {
  const { rows } = await app.database.sql.query<RateRow>(
    `SELECT ${RATE_COLUMNS} FROM campaign_rates c JOIN referral_codes k ON k.id = c.referral_code_id
     WHERE k.affiliate_id = $1 ORDER BY k.code, c.starts_at, c.id`,
    [input.affiliateId],
  );
  return rows.map(rateOf);
}

/** The first instant of a UTC day. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

export async function createCampaignRate(
  app: AppContext,
  operator: SignedInUser,
  input: AdminCreateCampaignRateRequest,
): Promise<AdminCampaignRate> {
  const now = app.now();
  const today = dayStart(now.toISOString().slice(0, 10));
  const firstDay = dayStart(input.from);
  const startsAt = new Date(Math.max(firstDay.getTime(), now.getTime()));
  const endsAt = new Date(dayStart(input.until).getTime() + DAY_MS);
  return inTransaction(app, async (tx) => {
    const { rows: codes } = await tx.query<{ id: string; code: string; affiliate_id: string }>(
      `SELECT id::text AS id, code, affiliate_id FROM referral_codes WHERE code = upper($1) FOR UPDATE`,
      [input.code],
    );
    const code = codes[0];
    if (!code) throw refusal('codeUnknown');
    if (firstDay.getTime() < today.getTime()) throw refusal('startsInPast');
    const { rows: held } = await tx.query<{ rates: number; overlapping: number }>(
      `SELECT count(*)::int AS rates, count(*) FILTER (WHERE starts_at < $3 AND ends_at > $2)::int AS overlapping
       FROM campaign_rates WHERE referral_code_id = $1`,
      [code.id, startsAt.toISOString(), endsAt.toISOString()],
    );
    if ((held[0]?.overlapping ?? 0) > 0) throw refusal('overlap');
    if ((held[0]?.rates ?? 0) >= CAMPAIGN_RATES_PER_CODE_MAX) throw refusal('tooMany');
    const amountCents = input.kind === 'flat' ? (input.amountCents ?? null) : null;
    const percentBasisPoints = input.kind === 'percentage' ? (input.percentBasisPoints ?? null) : null;
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO campaign_rates (referral_code_id, starts_at, ends_at, kind, amount_cents, percent_basis_points,
                                   created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text AS id`,
      [
        code.id,
        startsAt.toISOString(),
        endsAt.toISOString(),
        input.kind,
        amountCents,
        percentBasisPoints,
        operator.userId,
        now.toISOString(),
      ],
    );
    const id = rows[0]!.id;
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'campaign-rate.created',
      subject: code.code,
      details: {
        campaignRateId: id,
        affiliateId: code.affiliate_id,
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        kind: input.kind,
        amountCents,
        percentBasisPoints,
      },
      at: now,
    });
    return readRate(tx, id);
  });
}

/**
 * Deletes a campaign rate no commission was priced by. Its row is locked first: a purchase being
 * priced by it (whose insert holds the row for its reference) finishes before, and is then counted.
 */
export async function deleteCampaignRate(
  app: AppContext,
  operator: SignedInUser,
  input: AdminDeleteCampaignRateRequest,
): Promise<{ deleted: string }> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id::text AS id FROM campaign_rates WHERE id = $1 FOR UPDATE`,
      [input.campaignRateId],
    );
    if (rows.length === 0) throw refusal('rateUnknown');
    const rate = await readRate(tx, input.campaignRateId);
    if (rate.commissions > 0) throw refusal('rateUsed');
    await tx.query(`DELETE FROM campaign_rates WHERE id = $1`, [input.campaignRateId]);
    const { id, code, commissions: _none, ...terms } = rate;
    await recordAudit(tx, {
      actor: operator.userId,
      action: 'campaign-rate.deleted',
      subject: code,
      details: { campaignRateId: id, ...terms },
      at: now,
    });
    return { deleted: id };
  });
}
