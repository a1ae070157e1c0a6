-- Campaign rates (docs/product/money.md#partner-groups-and-reward-rules): a referral code's own rate for a
-- date range, overriding its group's rule for first purchases that occur in the range (the group's
-- hold and minimum payout still apply). A code's ranges never overlap (the operator's functions
-- refuse it, checked under the code's lock).
CREATE TABLE campaign_rates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  referral_code_id bigint NOT NULL REFERENCES referral_codes (id),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('flat', 'percentage')),
  amount_cents bigint CHECK (amount_cents >= 0),
  percent_basis_points integer CHECK (percent_basis_points BETWEEN 0 AND 10000),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at),
  CHECK ((kind = 'flat') = (amount_cents IS NOT NULL)),
  CHECK ((kind = 'percentage') = (percent_basis_points IS NOT NULL))
);
CREATE INDEX campaign_rates_code_idx ON campaign_rates (referral_code_id, starts_at);
ALTER TABLE conversions ADD COLUMN campaign_rate_id bigint REFERENCES campaign_rates (id);
ALTER TABLE conversions DROP CONSTRAINT conversions_rate_tier_check;
ALTER TABLE conversions ADD CONSTRAINT conversions_rate_tier_check
  CHECK (rate_tier IN ('standard', 'premium', 'percentage', 'campaign'));
