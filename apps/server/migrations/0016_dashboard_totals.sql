-- The rest of the dashboard's figures kept as totals (features/affiliate/affiliate-stats.ts,
-- docs/product/money.md#statistics, docs/decisions/012-counted-click-totals.md), as the codes' counted clicks already
-- are (migrations/0005_dashboard_reads.sql): the statistics statement read every ledger entry of the
-- affiliate (about 330 for the benchmark's affiliate, one per movement of each commission) and every
-- qualified conversion, each time the dashboard opened. It now reads a few rows by key. The totals are
-- kept set-based, once per statement, by triggers with transition tables (as migrations/0013 does for
-- the ledger): every writer keeps them exact without knowing of them.

-- 1. The affiliate's ledger balances: what its entries add to each account (entered minus left).
CREATE TABLE affiliate_ledger_totals (
  affiliate_id text PRIMARY KEY,
  pending bigint NOT NULL,
  payable bigint NOT NULL,
  held bigint NOT NULL,
  in_payout bigint NOT NULL,
  paid bigint NOT NULL
);

-- 2. What its entries with a `payable_from` add to `payable`, by that instant's UTC day. The payable
--    balance at a cut-off (the 1st of a month, 00:00 UTC: domain/money.ts nextPayoutCutoff) is the
--    payable total less the days from the cut-off's on: a range of a few rows, the recent days.
CREATE TABLE affiliate_payable_days (
  affiliate_id text NOT NULL,
  day date NOT NULL,
  payable bigint NOT NULL,
  PRIMARY KEY (affiliate_id, day)
);

-- 3. Its qualified conversions (first purchases not reversed: domain/ledger.ts LEDGER_TOTALS_CTES `earned`)
--    per referral code (0 for a conversion without one), and per UTC day of `occurred_at` for the
--    last 30 days' card (a window of whole UTC days: shared/affiliate/recent-activity.ts).
CREATE TABLE affiliate_code_conversion_totals (
  affiliate_id text NOT NULL,
  referral_code_id bigint NOT NULL,
  qualified bigint NOT NULL,
  PRIMARY KEY (affiliate_id, referral_code_id)
);

CREATE TABLE affiliate_conversion_days (
  affiliate_id text NOT NULL,
  day date NOT NULL,
  qualified bigint NOT NULL,
  PRIMARY KEY (affiliate_id, day)
);

-- Rows go in in key order (INSERT … ON CONFLICT takes them in the order given): two statements in
-- flight that share an affiliate lock its totals in the same order and cannot deadlock.

-- The ledger is appended to, never changed (migrations/0007_ledger.sql): inserts are all that move
-- its totals.
CREATE FUNCTION ledger_totals_added() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO affiliate_ledger_totals AS t (affiliate_id, pending, payable, held, in_payout, paid)
  SELECT e.affiliate_id,
         sum(CASE WHEN e.to_account = 'pending' THEN e.amount_cents WHEN e.from_account = 'pending' THEN -e.amount_cents ELSE 0 END),
         sum(CASE WHEN e.to_account = 'payable' THEN e.amount_cents WHEN e.from_account = 'payable' THEN -e.amount_cents ELSE 0 END),
         sum(CASE WHEN e.to_account = 'held' THEN e.amount_cents WHEN e.from_account = 'held' THEN -e.amount_cents ELSE 0 END),
         sum(CASE WHEN e.to_account = 'in-payout' THEN e.amount_cents WHEN e.from_account = 'in-payout' THEN -e.amount_cents ELSE 0 END),
         sum(CASE WHEN e.to_account = 'paid' THEN e.amount_cents WHEN e.from_account = 'paid' THEN -e.amount_cents ELSE 0 END)
  FROM added_entries e
  GROUP BY e.affiliate_id
  ORDER BY e.affiliate_id
  ON CONFLICT (affiliate_id) DO UPDATE SET pending = t.pending + EXCLUDED.pending, payable = t.payable + EXCLUDED.payable,
    held = t.held + EXCLUDED.held, in_payout = t.in_payout + EXCLUDED.in_payout, paid = t.paid + EXCLUDED.paid;

  INSERT INTO affiliate_payable_days AS t (affiliate_id, day, payable)
  SELECT e.affiliate_id, (e.payable_from AT TIME ZONE 'UTC')::date,
         sum(CASE WHEN e.to_account = 'payable' THEN e.amount_cents ELSE -e.amount_cents END)
  FROM added_entries e
  WHERE e.payable_from IS NOT NULL AND 'payable' IN (e.from_account, e.to_account)
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (affiliate_id, day) DO UPDATE SET payable = t.payable + EXCLUDED.payable;
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_entries_totals AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS added_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_totals_added();

-- Adds a statement's changes of qualified conversions: one per conversion that became qualified
-- (+1) or stopped being so (-1), with its affiliate, code and day. Changes that cancel out (a payout
-- run moving approved rows to paid) write nothing. (A data-modifying WITH runs whether or not it is read.)
CREATE FUNCTION conversion_totals_add(
  affiliates text[], codes bigint[], days date[], signs integer[]
) RETURNS void LANGUAGE sql AS $$
  WITH change AS (
    SELECT * FROM unnest(affiliates, codes, days, signs) AS c(affiliate_id, referral_code_id, day, sign)
  ), by_code AS (
    INSERT INTO affiliate_code_conversion_totals AS t (affiliate_id, referral_code_id, qualified)
    SELECT affiliate_id, referral_code_id, sum(sign) FROM change
    GROUP BY affiliate_id, referral_code_id HAVING sum(sign) <> 0
    ORDER BY affiliate_id, referral_code_id
    ON CONFLICT (affiliate_id, referral_code_id) DO UPDATE SET qualified = t.qualified + EXCLUDED.qualified
  )
  INSERT INTO affiliate_conversion_days AS t (affiliate_id, day, qualified)
  SELECT affiliate_id, day, sum(sign) FROM change
  GROUP BY affiliate_id, day HAVING sum(sign) <> 0
  ORDER BY affiliate_id, day
  ON CONFLICT (affiliate_id, day) DO UPDATE SET qualified = t.qualified + EXCLUDED.qualified
$$;

-- A conversion is qualified when it is a first purchase not reversed; an insert, an update (of its
-- status, kind, affiliate, code or time) or a delete can change that.
CREATE FUNCTION conversion_totals_changed() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM conversion_totals_add(array_agg(n.affiliate_id), array_agg(coalesce(n.referral_code_id, 0)),
                                  array_agg((n.occurred_at AT TIME ZONE 'UTC')::date), array_agg(1))
    FROM inserted_rows n WHERE n.status <> 'reversed' AND n.kind = 'first-purchase' HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM conversion_totals_add(array_agg(o.affiliate_id), array_agg(coalesce(o.referral_code_id, 0)),
                                  array_agg((o.occurred_at AT TIME ZONE 'UTC')::date), array_agg(-1))
    FROM deleted_rows o WHERE o.status <> 'reversed' AND o.kind = 'first-purchase' HAVING count(*) > 0;
  ELSE
    PERFORM conversion_totals_add(array_agg(c.affiliate_id), array_agg(c.referral_code_id), array_agg(c.day),
                                  array_agg(c.sign))
    FROM (
      SELECT o.affiliate_id, coalesce(o.referral_code_id, 0) AS referral_code_id,
             (o.occurred_at AT TIME ZONE 'UTC')::date AS day, -1 AS sign
      FROM old_rows o WHERE o.status <> 'reversed' AND o.kind = 'first-purchase'
      UNION ALL
      SELECT n.affiliate_id, coalesce(n.referral_code_id, 0), (n.occurred_at AT TIME ZONE 'UTC')::date, 1
      FROM new_rows n WHERE n.status <> 'reversed' AND n.kind = 'first-purchase'
    ) c HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER conversions_totals_inserted AFTER INSERT ON conversions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION conversion_totals_changed();
CREATE TRIGGER conversions_totals_updated AFTER UPDATE ON conversions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversion_totals_changed();
CREATE TRIGGER conversions_totals_deleted AFTER DELETE ON conversions
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION conversion_totals_changed();

-- The totals of the rows already there.
INSERT INTO affiliate_ledger_totals (affiliate_id, pending, payable, held, in_payout, paid)
SELECT e.affiliate_id,
       sum(CASE WHEN e.to_account = 'pending' THEN e.amount_cents WHEN e.from_account = 'pending' THEN -e.amount_cents ELSE 0 END),
       sum(CASE WHEN e.to_account = 'payable' THEN e.amount_cents WHEN e.from_account = 'payable' THEN -e.amount_cents ELSE 0 END),
       sum(CASE WHEN e.to_account = 'held' THEN e.amount_cents WHEN e.from_account = 'held' THEN -e.amount_cents ELSE 0 END),
       sum(CASE WHEN e.to_account = 'in-payout' THEN e.amount_cents WHEN e.from_account = 'in-payout' THEN -e.amount_cents ELSE 0 END),
       sum(CASE WHEN e.to_account = 'paid' THEN e.amount_cents WHEN e.from_account = 'paid' THEN -e.amount_cents ELSE 0 END)
FROM ledger_entries e GROUP BY e.affiliate_id;

INSERT INTO affiliate_payable_days (affiliate_id, day, payable)
SELECT e.affiliate_id, (e.payable_from AT TIME ZONE 'UTC')::date,
       sum(CASE WHEN e.to_account = 'payable' THEN e.amount_cents ELSE -e.amount_cents END)
FROM ledger_entries e
WHERE e.payable_from IS NOT NULL AND 'payable' IN (e.from_account, e.to_account)
GROUP BY 1, 2;

INSERT INTO affiliate_code_conversion_totals (affiliate_id, referral_code_id, qualified)
SELECT affiliate_id, coalesce(referral_code_id, 0), count(*) FROM conversions
WHERE status <> 'reversed' AND kind = 'first-purchase' GROUP BY 1, 2;

INSERT INTO affiliate_conversion_days (affiliate_id, day, qualified)
SELECT affiliate_id, (occurred_at AT TIME ZONE 'UTC')::date, count(*) FROM conversions
WHERE status <> 'reversed' AND kind = 'first-purchase' GROUP BY 1, 2;
