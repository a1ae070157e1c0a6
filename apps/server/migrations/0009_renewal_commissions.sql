-- Commissions on renewals (docs/product/money.md#partner-groups-and-reward-rules): a percentage rule may
-- pay on an install's renewals for a number of months after its first purchase. A conversion is still
-- an install's first paid subscription (one per install, the only kind counted as qualified); a
-- renewal's commission is a row of its own that names the first purchase it renews.
ALTER TABLE conversions ADD COLUMN kind text NOT NULL DEFAULT 'first-purchase'
  CHECK (kind IN ('first-purchase', 'renewal'));
ALTER TABLE conversions ADD COLUMN first_conversion_id bigint REFERENCES conversions (id);
-- The proceeds the commission was priced from (USD cents after the store's commission), when known.
ALTER TABLE conversions ADD COLUMN proceeds_cents bigint CHECK (proceeds_cents >= 0);
ALTER TABLE conversions ADD CONSTRAINT conversions_renewal_of CHECK ((kind = 'renewal') = (first_conversion_id IS NOT NULL));
ALTER TABLE conversions DROP CONSTRAINT conversions_install_id_key;
CREATE UNIQUE INDEX conversions_install_first_idx ON conversions (install_id) WHERE kind = 'first-purchase';
CREATE INDEX conversions_renewals_idx ON conversions (first_conversion_id) WHERE first_conversion_id IS NOT NULL;
