-- What the dashboard's statistics read (features/affiliate/affiliate-stats.ts), kept so that one
-- statement answers from a few index pages however many visits and conversions an affiliate has
-- (docs/benchmarks.md, "Dashboard statistics").

-- 1. Each code's counted clicks, kept as a total. Counting click_counts' keys took one index entry
--    per counted click: about 0.25 µs each, so 0.2 ms for this benchmark's affiliate and a quarter of
--    a second for one with a million. The triggers below keep the total exact for every writer (the
--    click writer's batches, fixtures, seeds): the number of click_counts' rows of the code. A table
--    of its own rather than a column of referral_codes: its narrow rows and one index make the update
--    that every batch of visits now carries a small one.
CREATE TABLE referral_code_click_totals (
  referral_code_id bigint PRIMARY KEY REFERENCES referral_codes (id),
  counted_clicks bigint NOT NULL
);

INSERT INTO referral_code_click_totals (referral_code_id, counted_clicks)
SELECT referral_code_id, count(*) FROM click_counts GROUP BY referral_code_id;

-- Once per statement, not per row: a batch of visits adds to each of its codes once. The totals go
-- in in code order (INSERT … ON CONFLICT takes its rows in the order given), so two batches in
-- flight (two connections, or two processes) that share codes lock their totals in the same order
-- and cannot deadlock; a batch holds them from the end of its statement to its commit. No statement
-- moves a key to another code (the retention job rewrites visitor keys only), so inserts and deletes
-- are all that change a total.
CREATE FUNCTION add_counted_clicks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO referral_code_click_totals AS t (referral_code_id, counted_clicks)
  SELECT referral_code_id, CASE TG_OP WHEN 'DELETE' THEN -count(*) ELSE count(*) END
  FROM changed_keys
  GROUP BY referral_code_id
  ORDER BY referral_code_id
  ON CONFLICT (referral_code_id) DO UPDATE SET counted_clicks = t.counted_clicks + EXCLUDED.counted_clicks;
  RETURN NULL;
END
$$;

CREATE TRIGGER click_counts_added AFTER INSERT ON click_counts
  REFERENCING NEW TABLE AS changed_keys
  FOR EACH STATEMENT EXECUTE FUNCTION add_counted_clicks();

CREATE TRIGGER click_counts_removed AFTER DELETE ON click_counts
  REFERENCING OLD TABLE AS changed_keys
  FOR EACH STATEMENT EXECUTE FUNCTION add_counted_clicks();

-- 2. The affiliate's conversions by affiliate and time, now carrying the columns the earnings
--    totals read: the statistics count and sum them from the index alone, where they fetched one
--    table page per conversion (an affiliate's conversions arrive over months, each on its own page).
--    The key is unchanged, so every query that used the index still can.
DROP INDEX conversions_affiliate_occurred_idx;
CREATE INDEX conversions_affiliate_occurred_idx ON conversions (affiliate_id, occurred_at)
  INCLUDE (status, commission_cents, referral_code_id, approved_at, payout_id);

-- 3. The counted-click keys by code, then hour, then visitor (they were by code, visitor, hour): the
--    same keys, so the same "once per code, visitor and hour", but the dashboard's chart
--    (features/affiliate/timeline.ts) now reads a code's last 30 days as one range of the index, where it
--    read every key the code ever had and kept those of the last 30 days.
ALTER TABLE click_counts DROP CONSTRAINT click_counts_pkey;
ALTER TABLE click_counts ADD PRIMARY KEY (referral_code_id, hour_bucket, visitor_key);
