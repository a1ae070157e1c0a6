-- Money in 64-bit integer cents (docs/decisions/016-security-hardening.md, "Money in 64 bits, prices bounded"). A
-- 32-bit column ends at 21,474,836.47: a larger price made the insert fail and the webhook answer 500
-- (and RevenueCat retry for ever). The webhook now bounds prices; the columns no longer set a limit of
-- their own below what the code can compute. A rewrite of each table, once.
ALTER TABLE conversions
  ALTER COLUMN commission_cents TYPE bigint,
  ALTER COLUMN price_cents TYPE bigint;
ALTER TABLE commission_adjustments ALTER COLUMN amount_cents TYPE bigint;
ALTER TABLE payouts
  ALTER COLUMN amount_cents TYPE bigint,
  ALTER COLUMN amount_paid_cents TYPE bigint;
