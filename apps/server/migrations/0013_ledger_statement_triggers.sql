-- The ledger's triggers, set-based (docs/decisions/026-money-ledger.md, docs/product/money.md#the-ledger):
-- the same entries as the row triggers of migrations/0007_ledger.sql and 0012_review.sql (same
-- columns, kinds, accounts, effective times, and for each row the same movements in the same order),
-- written by one INSERT ... SELECT per statement from its transition tables instead of one nested
-- plpgsql call per row. A payout run links thousands of rows per statement: the row triggers made it
-- five to seven times slower (docs/benchmarks.md#monthly-payout-job).

-- The movements that take an amount from one account to another, in order: the walk of
-- ledger_follow (migrations/0007_ledger.sql), computed once per pair of accounts rather than per row.
-- A move back that the lifecycle forbids answers a step without a kind: the trigger then raises
-- ledger_refuse_move's error, as ledger_follow did.
CREATE FUNCTION ledger_walk(from_account text, to_account text, entry_kind text)
RETURNS TABLE (step_kind text, step_from text, step_to text) LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  accounts constant text[] := ARRAY['programme', 'pending', 'payable', 'in-payout', 'paid'];
  here integer := ledger_rank(from_account);
  there integer := ledger_rank(to_account);
  step integer;
BEGIN
  IF here = there THEN
    RETURN;
  END IF;
  IF there = 0 THEN
    RETURN QUERY SELECT 'reversed'::text, from_account, 'programme'::text;
    RETURN;
  END IF;
  WHILE here <> there LOOP
    IF here < there THEN
      step := here + 1;
      IF here = 0 THEN
        step_kind := entry_kind;
        IF entry_kind <> 'earned' THEN
          step := 2;
        END IF;
      ELSIF here = 1 THEN
        step_kind := 'approved';
      ELSIF here = 2 THEN
        step_kind := 'scheduled';
      ELSE
        step_kind := 'paid';
      END IF;
    ELSE
      IF here <= 2 THEN
        RETURN QUERY SELECT NULL::text, accounts[here + 1], accounts[there + 1];
        RETURN;
      END IF;
      step := here - 1;
      step_kind := CASE WHEN here = 4 THEN 'payout-failed' ELSE 'released' END;
    END IF;
    step_from := accounts[here + 1];
    step_to := accounts[step + 1];
    RETURN NEXT;
    here := step;
  END LOOP;
END $$;

-- As ledger_walk, with the review's account `held` (the 14-argument ledger_follow of
-- migrations/0012_review.sql): into `held` through where the row stood, out of it to where its status
-- puts it, or straight back to the programme when it is reversed.
CREATE FUNCTION ledger_path(from_account text, to_account text, entry_kind text)
RETURNS TABLE (step_kind text, step_from text, step_to text) LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  base text;
BEGIN
  IF from_account = to_account THEN
    RETURN;
  END IF;
  IF to_account = 'held' THEN
    base := CASE WHEN from_account = 'programme' THEN 'pending'
                 WHEN from_account IN ('in-payout', 'paid') THEN 'payable'
                 ELSE from_account END;
    RETURN QUERY SELECT w.step_kind, w.step_from, w.step_to FROM ledger_walk(from_account, base, entry_kind) w;
    RETURN QUERY SELECT 'held'::text, base, 'held'::text;
    RETURN;
  END IF;
  IF from_account = 'held' THEN
    IF to_account = 'programme' THEN
      RETURN QUERY SELECT 'reversed'::text, 'held'::text, 'programme'::text;
      RETURN;
    END IF;
    base := CASE WHEN to_account = 'pending' THEN 'pending' ELSE 'payable' END;
    RETURN QUERY SELECT 'released-from-review'::text, 'held'::text, base;
    RETURN QUERY SELECT w.step_kind, w.step_from, w.step_to FROM ledger_walk(base, to_account, entry_kind) w;
    RETURN;
  END IF;
  RETURN QUERY SELECT w.step_kind, w.step_from, w.step_to FROM ledger_walk(from_account, to_account, entry_kind) w;
END $$;

-- ledger_follow's error for a move back the lifecycle forbids (say, from payable to pending).
CREATE FUNCTION ledger_refuse_move(amount bigint, from_account text, to_account text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a % cent amount cannot move back from % to %', amount, from_account, to_account;
END $$;

-- A move: a row's amount going from one account to another in one statement, with what ledger_follow
-- took to date and place its steps (the payouts it leaves and enters, when it was earned, approved,
-- reversed, held or released).
CREATE TYPE ledger_move AS (
  affiliate_id text, conversion_id bigint, adjustment_id bigint, amount bigint, payable_from timestamptz,
  from_account text, to_account text, old_payout uuid, new_payout uuid,
  earned_at timestamptz, approved_at timestamptz, reversed_at timestamptz, entry_kind text, review_at timestamptz
);

-- Appends the entries of a statement's moves in one INSERT: the moves in the order given, each one's
-- steps in ledger_path's order (the paths are materialized: computed once per pair of accounts, not once
-- per move, which the planner would otherwise do). Each step's payout and effective time are those ledger_follow gave:
--   earned, adjusted, clawed-back: when earned (or created), no payout; approved: when approved;
--   scheduled: the entered payout's creation; paid: its sending (or payment); payout-failed and
--   released: the left payout's failure; reversed: the reversal; held and released-from-review: the
--   review's change; now() when the time is unknown.
CREATE FUNCTION ledger_append(moves ledger_move[]) RETURNS void LANGUAGE sql AS $$
  WITH move AS (
    SELECT m.* FROM unnest(moves) WITH ORDINALITY AS m(affiliate_id, conversion_id, adjustment_id, amount, payable_from,
      from_account, to_account, old_payout, new_payout, earned_at, approved_at, reversed_at, entry_kind, review_at, ordinal)
    WHERE m.from_account <> m.to_account AND m.amount <> 0
  ), path AS MATERIALIZED (
    SELECT k.from_account, k.to_account, k.entry_kind, s.step_kind, s.step_from, s.step_to, s.n
    FROM (SELECT DISTINCT from_account, to_account, entry_kind FROM move) k
    CROSS JOIN LATERAL ledger_path(k.from_account, k.to_account, k.entry_kind)
      WITH ORDINALITY AS s(step_kind, step_from, step_to, n)
  )
  INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id, adjustment_id,
                              payout_id, payable_from, effective_at)
  SELECT m.affiliate_id, coalesce(s.step_kind, ledger_refuse_move(m.amount, s.step_from, s.step_to)), s.step_from,
         s.step_to, m.amount, m.conversion_id, m.adjustment_id,
         CASE WHEN s.step_kind IN ('scheduled', 'paid') THEN m.new_payout
              WHEN s.step_kind IN ('payout-failed', 'released') THEN coalesce(m.old_payout, m.new_payout) END,
         m.payable_from,
         CASE s.step_kind
           WHEN 'approved' THEN coalesce(m.approved_at, m.earned_at)
           WHEN 'scheduled' THEN coalesce(entering.created_at, now())
           WHEN 'paid' THEN coalesce(entering.sent_at, entering.paid_at, now())
           WHEN 'payout-failed' THEN coalesce(leaving.failed_at, now())
           WHEN 'released' THEN coalesce(leaving.failed_at, now())
           WHEN 'reversed' THEN coalesce(m.reversed_at, now())
           WHEN 'held' THEN coalesce(m.review_at, now())
           WHEN 'released-from-review' THEN coalesce(m.review_at, now())
           ELSE m.earned_at
         END
  FROM move m
  JOIN path s ON s.from_account = m.from_account AND s.to_account = m.to_account AND s.entry_kind = m.entry_kind
  LEFT JOIN payouts entering ON entering.id = m.new_payout
  LEFT JOIN payouts leaving ON leaving.id = coalesce(m.old_payout, m.new_payout)
  ORDER BY m.ordinal, s.n
$$;

-- Commissions: inserted (from the programme) and updated (from where the old row stood), in the
-- order of their ids. The row triggers fired on updates of status, payout_id or review_hold; a
-- trigger with transition tables takes no column list, and an update of other columns moves nothing.
CREATE FUNCTION conversion_ledger_inserted() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM ledger_append(ARRAY(
    SELECT ROW(n.affiliate_id, n.id, NULL, n.commission_cents, coalesce(n.approved_at, n.occurred_at), 'programme',
               ledger_location(n.status, p.status, n.review_hold), NULL, n.payout_id, n.occurred_at, n.approved_at,
               n.reversed_at, 'earned', n.review_changed_at)::ledger_move
    FROM inserted_rows n LEFT JOIN payouts p ON p.id = n.payout_id
    ORDER BY n.id));
  RETURN NULL;
END $$;

CREATE FUNCTION conversion_ledger_updated() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM ledger_append(ARRAY(
    SELECT ROW(n.affiliate_id, n.id, NULL, n.commission_cents, coalesce(n.approved_at, n.occurred_at),
               ledger_location(o.status, po.status, o.review_hold), ledger_location(n.status, pn.status, n.review_hold),
               o.payout_id, n.payout_id, n.occurred_at, n.approved_at, n.reversed_at, 'earned',
               n.review_changed_at)::ledger_move
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    LEFT JOIN payouts po ON po.id = o.payout_id
    LEFT JOIN payouts pn ON pn.id = n.payout_id
    WHERE o.status IS DISTINCT FROM n.status OR o.payout_id IS DISTINCT FROM n.payout_id
       OR o.review_hold IS DISTINCT FROM n.review_hold
    ORDER BY n.id));
  RETURN NULL;
END $$;

-- Adjustments: inserted (entering at payable, or straight into a payout) and moved between payouts.
CREATE FUNCTION adjustment_ledger_inserted() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM ledger_append(ARRAY(
    SELECT ROW(n.affiliate_id, NULL, n.id, n.amount_cents, CASE WHEN n.amount_cents < 0 THEN NULL ELSE n.created_at END,
               'programme', ledger_location('approved', p.status), NULL, n.payout_id, n.created_at, NULL, NULL,
               CASE WHEN n.conversion_id IS NOT NULL AND n.amount_cents < 0 THEN 'clawed-back' ELSE 'adjusted' END,
               NULL)::ledger_move
    FROM inserted_rows n LEFT JOIN payouts p ON p.id = n.payout_id
    ORDER BY n.id));
  RETURN NULL;
END $$;

CREATE FUNCTION adjustment_ledger_updated() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM ledger_append(ARRAY(
    SELECT ROW(n.affiliate_id, NULL, n.id, n.amount_cents, CASE WHEN n.amount_cents < 0 THEN NULL ELSE n.created_at END,
               ledger_location('approved', po.status), ledger_location('approved', pn.status), o.payout_id,
               n.payout_id, n.created_at, NULL, NULL,
               CASE WHEN n.conversion_id IS NOT NULL AND n.amount_cents < 0 THEN 'clawed-back' ELSE 'adjusted' END,
               NULL)::ledger_move
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    LEFT JOIN payouts po ON po.id = o.payout_id
    LEFT JOIN payouts pn ON pn.id = n.payout_id
    WHERE o.payout_id IS DISTINCT FROM n.payout_id
    ORDER BY n.id));
  RETURN NULL;
END $$;

-- A payout's status moves the rows it holds (sent: to paid; failed: back to payable): payout by
-- payout, its commissions then its adjustments, each by id.
CREATE FUNCTION payout_ledger_updated() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM ledger_append(ARRAY(
    SELECT m FROM (
      SELECT n.id AS payout_id, 0 AS ledger, c.id,
             ROW(c.affiliate_id, c.id, NULL, c.commission_cents, coalesce(c.approved_at, c.occurred_at),
                 ledger_location(c.status, o.status, c.review_hold), ledger_location(c.status, n.status, c.review_hold),
                 n.id, n.id, c.occurred_at, c.approved_at, c.reversed_at, 'earned', c.review_changed_at)::ledger_move AS m
      FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN conversions c ON c.payout_id = n.id
      WHERE o.status IS DISTINCT FROM n.status
      UNION ALL
      SELECT n.id, 1, a.id,
             ROW(a.affiliate_id, NULL, a.id, a.amount_cents, CASE WHEN a.amount_cents < 0 THEN NULL ELSE a.created_at END,
                 ledger_location('approved', o.status), ledger_location('approved', n.status), n.id, n.id, a.created_at,
                 NULL, NULL, 'adjusted', NULL)::ledger_move
      FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN commission_adjustments a ON a.payout_id = n.id
      WHERE o.status IS DISTINCT FROM n.status
    ) held
    ORDER BY held.payout_id, held.ledger, held.id));
  RETURN NULL;
END $$;

DROP TRIGGER conversions_ledger ON conversions;
DROP TRIGGER adjustments_ledger ON commission_adjustments;
DROP TRIGGER payouts_ledger ON payouts;
DROP FUNCTION conversion_ledger();
DROP FUNCTION adjustment_ledger();
DROP FUNCTION payout_ledger();

-- A trigger with transition tables answers one event: inserts and updates have one each. The planner
-- knows a transition table's size but not how its rows join (it expects millions of rows from a payout
-- run's batch): the trigger functions turn off PostgreSQL's compilation of plans, which that guess set
-- off at a cost of a third of a second per statement.
CREATE TRIGGER conversions_ledger_inserted AFTER INSERT ON conversions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION conversion_ledger_inserted();
CREATE TRIGGER conversions_ledger_updated AFTER UPDATE ON conversions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversion_ledger_updated();
CREATE TRIGGER adjustments_ledger_inserted AFTER INSERT ON commission_adjustments
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION adjustment_ledger_inserted();
CREATE TRIGGER adjustments_ledger_updated AFTER UPDATE ON commission_adjustments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adjustment_ledger_updated();
CREATE TRIGGER payouts_ledger_updated AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payout_ledger_updated();
