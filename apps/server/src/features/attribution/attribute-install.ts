import {
  ATTRIBUTION_CONFIDENCE,
  type AttributeInstallInput,
  type AttributeInstallResponse,
  type AttributionMethod,
  IP_MATCH_WINDOW_MINUTES,
  TRACKING_ID_MAX_AGE_DAYS,
} from '@skanova/shared/attribution/schemas';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { SqlClient } from '../../db/client.ts';
import { installs } from '../../db/schema/programme.ts';
import { inTransaction } from '../../db/transaction.ts';
import { earningAffiliateJoins, mayEarnSql } from '../../domain/earning-affiliate.ts';
import { checkSelfReferral } from '../../domain/review-signals.ts';
import { type InstallRow, findInstall, installByAppUserId, linkAliases } from './installs.ts';

// Install attribution at the app's first launch (docs/product/attribution.md#install-attribution), in order:
//   1. the tracking id the app received (Play install referrer, or the iOS clipboard) → that visit's code;
//   2. a code: typed by the person, else the one the install referrer carried beside the tracking id;
//   3. the latest visit from the same IP (keyed hash) and platform within the hour, not a bot.
// A rule whose affiliate no longer earns (disabled, refused, pending, deleted) gives way to the next.
// Last click wins: the tracking id is the latest visit's (each visit replaces the cookie), and the IP
// rule takes the latest visit even when its affiliate no longer earns (then nothing matches).
// An app user is attributed once: the unique app user id decides between simultaneous calls. An
// install left unattributed may still be claimed later by a tracking id or a code, never by an IP
// match (which only means something at first launch).

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

interface Candidate {
  method: AttributionMethod;
  clickId: string | null;
  referralCodeId: string;
  code: string;
  affiliateId: string;
}

interface CandidateRow {
  click_id: string | null;
  referral_code_id: string;
  code: string;
  affiliate_id: string;
  may_earn: boolean;
}

const CANDIDATE_COLUMNS = `r.id::text AS referral_code_id, r.code, r.affiliate_id`;

const BY_TRACKING_ID_SQL = `
SELECT c.id::text AS click_id, ${CANDIDATE_COLUMNS}, ${mayEarnSql('$3')} AS may_earn
FROM clicks c JOIN referral_codes r ON r.id = c.referral_code_id ${earningAffiliateJoins('r.affiliate_id')}
WHERE c.tracking_id = $1 AND c.created_at > $2`;

const BY_CODE_SQL = `
SELECT NULL AS click_id, ${CANDIDATE_COLUMNS}, ${mayEarnSql('$2')} AS may_earn
FROM referral_codes r ${earningAffiliateJoins('r.affiliate_id')}
WHERE r.code = $1`;

const BY_IP_SQL = `
SELECT c.id::text AS click_id, ${CANDIDATE_COLUMNS}, ${mayEarnSql('$4')} AS may_earn
FROM clicks c JOIN referral_codes r ON r.id = c.referral_code_id ${earningAffiliateJoins('r.affiliate_id')}
WHERE c.ip_hash = $1 AND c.platform = $2 AND NOT c.is_bot AND c.created_at > $3 AND c.created_at <= $4
ORDER BY c.created_at DESC, c.id DESC
LIMIT 1`;

/** A bigint id read as text (the statements above) as the typed queries take it. */
const idOrNull = (id: string | null | undefined) => (id == null ? null : Number(id));

function earning(method: AttributionMethod, row: CandidateRow | undefined): Candidate | null {
  if (!row?.may_earn) return null;
  return {
    method,
    clickId: row.click_id,
    referralCodeId: row.referral_code_id,
    code: row.code,
    affiliateId: row.affiliate_id,
  };
}

/** The first rule that attributes the install, or null. */
async function findCandidate(
  sql: Pick<SqlClient, 'query'>,
  input: AttributeInstallInput,
  context: { ipHash: string; now: Date; allowIpMatch: boolean },
): Promise<Candidate | null> {
  const now = context.now.toISOString();
  if (input.trackingId) {
    const oldest = new Date(context.now.getTime() - TRACKING_ID_MAX_AGE_DAYS * DAY_MS).toISOString();
    const { rows } = await sql.query<CandidateRow>(BY_TRACKING_ID_SQL, [input.trackingId, oldest, now]);
    const found = earning('tracking_id', rows[0]);
    if (found) return found;
  }
  for (const code of new Set([input.referralCode, input.linkCode])) {
    if (!code) continue;
    const { rows } = await sql.query<CandidateRow>(BY_CODE_SQL, [code, now]);
    const found = earning('code_claim', rows[0]);
    if (found) return found;
  }
  if (!context.allowIpMatch) return null;
  const since = new Date(context.now.getTime() - IP_MATCH_WINDOW_MINUTES * MINUTE_MS).toISOString();
  const { rows } = await sql.query<CandidateRow>(BY_IP_SQL, [context.ipHash, input.platform, since, now]);
  return earning('ip_match', rows[0]);
}

function answer(install: Pick<InstallRow, 'affiliateId' | 'code' | 'method'> | null): AttributeInstallResponse {
  if (!install?.affiliateId) return { attributed: false, code: null, method: null };
  return { attributed: true, code: install.code, method: install.method };
}

/** Records the app user's install (once) and answers its attribution. `ip` is the caller's address. */
export async function attributeAppUser(
  app: AppContext,
  input: AttributeInstallInput,
  ip: string,
): Promise<AttributeInstallResponse> {
  const now = app.now();
  const known = await findInstall(app.database.sql, [input.appUserId]);
  if (known?.affiliateId) return answer(known);

  const ipHash = app.hashIdentifier(ip);
  const candidate = await findCandidate(app.database.sql, input, { ipHash, now, allowIpMatch: known === null });

  return inTransaction(app, async (tx) => {
    if (!known) {
      const [created] = await tx.db
        .insert(installs)
        .values({
          appUserId: input.appUserId,
          platform: input.platform,
          clickId: idOrNull(candidate?.clickId),
          referralCodeId: idOrNull(candidate?.referralCodeId),
          affiliateId: candidate?.affiliateId ?? null,
          method: candidate?.method ?? null,
          confidence: candidate ? ATTRIBUTION_CONFIDENCE[candidate.method] : null,
          ipHash,
          device: input.device ?? null,
          attributedAt: candidate ? now : null,
          createdAt: now,
        })
        .onConflictDoNothing({ target: installs.appUserId })
        .returning({ id: installs.id });
      if (created) {
        await linkAliases(tx, String(created.id), [input.appUserId], now);
        // An attribution arriving: is the install the affiliate's own (docs/product/review.md#signals)?
        if (candidate) await checkSelfReferral(tx, app, { installId: String(created.id), at: now });
        return answer(candidate);
      }
    }

    // The app user already has an install: an earlier call, a simultaneous one that committed first,
    // or an id RevenueCat linked to someone's install.
    const existing =
      (await findInstall(tx, [input.appUserId], { lock: true })) ??
      (await installByAppUserId(tx, input.appUserId, { lock: true }));
    if (!existing || existing.affiliateId || !candidate || candidate.method === 'ip_match') return answer(existing);
    await tx.db
      .update(installs)
      .set({
        clickId: idOrNull(candidate.clickId),
        referralCodeId: Number(candidate.referralCodeId),
        affiliateId: candidate.affiliateId,
        method: candidate.method,
        confidence: ATTRIBUTION_CONFIDENCE[candidate.method],
        attributedAt: now,
      })
      .where(and(eq(installs.id, Number(existing.id)), isNull(installs.affiliateId)));
    await checkSelfReferral(tx, app, { installId: String(existing.id), at: now });
    return answer(candidate);
  });
}
