-- Partner groups, versioned reward rules and the money ledger (docs/product/money.md#partner-groups-and-reward-rules,
-- docs/product/money.md#the-ledger, docs/decisions/026-money-ledger.md).

-- Every affiliate belongs to one group; the default group carries the programme's rule.
CREATE TABLE partner_groups (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO partner_groups (id, name, created_at) VALUES ('default', 'Default', '1970-01-01T00:00:00Z');

-- A group's reward rule, versioned: a new version applies to events from its effective time on,
-- never to money already earned. Flat: `tiers` is [{"from": qualified conversions, "cents": amount}],
-- its first tier from 0 and rising. Percentage: basis points of the proceeds, on the first purchase
-- only (recurring_months null) or on renewals for that many months.
CREATE TABLE reward_rules (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  group_id text NOT NULL REFERENCES partner_groups (id),
  version integer NOT NULL CHECK (version >= 1),
  effective_from timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('flat', 'percentage')),
  tiers jsonb,
  percent_basis_points integer CHECK (percent_basis_points BETWEEN 0 AND 10000),
  recurring_months integer CHECK (recurring_months BETWEEN 1 AND 120),
  hold_days integer NOT NULL CHECK (hold_days BETWEEN 0 AND 365),
  minimum_payout_cents bigint NOT NULL CHECK (minimum_payout_cents >= 0),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, version),
  CHECK ((kind = 'flat') = (tiers IS NOT NULL)),
  CHECK ((kind = 'percentage') = (percent_basis_points IS NOT NULL)),
  CHECK (kind = 'percentage' OR recurring_months IS NULL)
);
CREATE INDEX reward_rules_effective_idx ON reward_rules (group_id, effective_from DESC, version DESC);
-- The specification's rule, in force since the beginning: $2, $4 from 100 qualified conversions,
-- a 30-day hold, $20 minimum payout.
INSERT INTO reward_rules (group_id, version, effective_from, kind, tiers, hold_days, minimum_payout_cents, created_at)
VALUES ('default', 1, '1970-01-01T00:00:00Z', 'flat', '[{"from": 0, "cents": 200}, {"from": 100, "cents": 400}]', 30, 2000,
        '1970-01-01T00:00:00Z');

ALTER TABLE affiliates ADD COLUMN group_id text NOT NULL DEFAULT 'default' REFERENCES partner_groups (id);
CREATE INDEX affiliates_group_idx ON affiliates (group_id);

-- The rule version that priced each commission, what it was priced from, and when its hold ends.
ALTER TABLE conversions ADD COLUMN rule_id bigint REFERENCES reward_rules (id);
ALTER TABLE conversions ADD COLUMN pricing jsonb;
ALTER TABLE conversions ADD COLUMN approvable_at timestamptz;
UPDATE conversions
SET rule_id = (SELECT id FROM reward_rules WHERE group_id = 'default' AND version = 1),
    pricing = jsonb_build_object('kind', 'flat', 'tier', rate_tier, 'migrated', true),
    approvable_at = occurred_at + make_interval(days => 30);

-- A conversion written without its rule (an import, a test's fixture) gets the rule its
-- affiliate's group had in force when it occurred, and that rule's hold.
CREATE FUNCTION conversion_rule_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule reward_rules%ROWTYPE;
BEGIN
  IF NEW.rule_id IS NULL THEN
    SELECT r.* INTO rule FROM reward_rules r
    WHERE r.group_id = (SELECT a.group_id FROM affiliates a WHERE a.id = NEW.affiliate_id)
      AND r.effective_from <= NEW.occurred_at
    ORDER BY r.effective_from DESC, r.version DESC LIMIT 1;
    NEW.rule_id := rule.id;
  ELSE
    SELECT r.* INTO rule FROM reward_rules r WHERE r.id = NEW.rule_id;
  END IF;
  IF NEW.approvable_at IS NULL THEN
    NEW.approvable_at := NEW.occurred_at + make_interval(days => rule.hold_days);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER conversions_rule_defaults BEFORE INSERT ON conversions
  FOR EACH ROW EXECUTE FUNCTION conversion_rule_defaults();
ALTER TABLE conversions ALTER COLUMN rule_id SET NOT NULL;
ALTER TABLE conversions DROP CONSTRAINT conversions_rate_tier_check;
ALTER TABLE conversions ADD CONSTRAINT conversions_rate_tier_check CHECK (rate_tier IN ('standard', 'premium', 'percentage'));
ALTER TABLE conversions ALTER COLUMN approvable_at SET NOT NULL;
DROP INDEX conversions_pending_idx;
CREATE INDEX conversions_pending_idx ON conversions (approvable_at) WHERE status = 'pending';

-- The ledger: every movement of an affiliate's money, appended, never changed. A movement takes a
-- row's amount (a commission, or a signed adjustment) from one account to the next:
--   programme → pending (earned) → payable (approved) → in-payout (scheduled) → paid (payout sent),
-- back from paid or in-payout to payable when a payout fails (payout-failed, released), back to the
-- programme when a commission is reversed; an adjustment enters at payable (adjusted, clawed-back).
-- Balances are sums: an account's balance is what entered it minus what left it.
-- `payable_from` is when the row became payable (approval, or an adjustment's creation; null for a
-- deduction, which is always payable): a payday pays the payable rows from before its cut-off.
CREATE TABLE ledger_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  affiliate_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('earned', 'approved', 'scheduled', 'paid', 'payout-failed', 'released',
                                     'reversed', 'adjusted', 'clawed-back')),
  from_account text NOT NULL CHECK (from_account IN ('programme', 'pending', 'payable', 'in-payout', 'paid')),
  to_account text NOT NULL CHECK (to_account IN ('programme', 'pending', 'payable', 'in-payout', 'paid')),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  conversion_id bigint,
  adjustment_id bigint,
  payout_id uuid,
  payable_from timestamptz,
  effective_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (from_account <> to_account),
  CHECK ((conversion_id IS NULL) <> (adjustment_id IS NULL))
);
CREATE INDEX ledger_entries_affiliate_idx ON ledger_entries (affiliate_id)
  INCLUDE (from_account, to_account, amount_cents, payable_from);
CREATE INDEX ledger_entries_conversion_idx ON ledger_entries (conversion_id) WHERE conversion_id IS NOT NULL;
CREATE INDEX ledger_entries_adjustment_idx ON ledger_entries (adjustment_id) WHERE adjustment_id IS NOT NULL;
CREATE INDEX ledger_entries_payout_idx ON ledger_entries (payout_id) WHERE payout_id IS NOT NULL;
CREATE INDEX ledger_entries_effective_idx ON ledger_entries (effective_at);

CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are appended, never changed or deleted' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Where a row's amount is, from its status and its payout's (a failed payout holds nothing).
CREATE FUNCTION ledger_location(row_status text, payout_status text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN row_status = 'reversed' THEN 'programme'
    WHEN payout_status IN ('sent', 'paid') THEN 'paid'
    WHEN payout_status = 'scheduled' THEN 'in-payout'
    WHEN row_status = 'paid' THEN 'paid'
    WHEN row_status = 'pending' THEN 'pending'
    ELSE 'payable'
  END
$$;

CREATE FUNCTION ledger_rank(account text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE account WHEN 'programme' THEN 0 WHEN 'pending' THEN 1 WHEN 'payable' THEN 2 WHEN 'in-payout' THEN 3 ELSE 4 END
$$;

-- Appends the movements that take a row's amount from `from_account` to `to_account`, one step of
-- the lifecycle at a time. `entry_kind` names the first step out of the programme (earned for a
-- commission; adjusted or clawed-back for an adjustment, which starts payable).
CREATE FUNCTION ledger_follow(
  affiliate text, conversion bigint, adjustment bigint, amount bigint, payable_from timestamptz,
  from_account text, to_account text, old_payout uuid, new_payout uuid,
  earned_at timestamptz, approved_at timestamptz, reversed_at timestamptz, entry_kind text
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  accounts constant text[] := ARRAY['programme', 'pending', 'payable', 'in-payout', 'paid'];
  here integer := ledger_rank(from_account);
  there integer := ledger_rank(to_account);
  step integer;
  step_kind text;
  step_at timestamptz;
  step_payout uuid;
  entering payouts%ROWTYPE;
  leaving payouts%ROWTYPE;
BEGIN
  IF here = there OR amount = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO entering FROM payouts WHERE id = new_payout;
  SELECT * INTO leaving FROM payouts WHERE id = coalesce(old_payout, new_payout);
  IF there = 0 THEN
    INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id,
                                adjustment_id, payout_id, payable_from, effective_at)
    VALUES (affiliate, 'reversed', from_account, 'programme', amount, conversion, adjustment, NULL, payable_from,
            coalesce(reversed_at, now()));
    RETURN;
  END IF;
  WHILE here <> there LOOP
    IF here < there THEN
      step := here + 1;
      step_payout := NULL;
      IF here = 0 THEN
        step_kind := entry_kind;
        step_at := earned_at;
        IF entry_kind <> 'earned' THEN
          step := 2;
        END IF;
      ELSIF here = 1 THEN
        step_kind := 'approved';
        step_at := coalesce(approved_at, earned_at);
      ELSIF here = 2 THEN
        step_kind := 'scheduled';
        step_at := coalesce(entering.created_at, now());
        step_payout := new_payout;
      ELSE
        step_kind := 'paid';
        step_at := coalesce(entering.sent_at, entering.paid_at, now());
        step_payout := new_payout;
      END IF;
    ELSE
      IF here <= 2 THEN
        RAISE EXCEPTION 'a % cent amount cannot move back from % to %', amount, accounts[here + 1], accounts[there + 1];
      END IF;
      step := here - 1;
      step_kind := CASE WHEN here = 4 THEN 'payout-failed' ELSE 'released' END;
      step_at := coalesce(leaving.failed_at, now());
      step_payout := coalesce(old_payout, new_payout);
    END IF;
    INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id,
                                adjustment_id, payout_id, payable_from, effective_at)
    VALUES (affiliate, step_kind, accounts[here + 1], accounts[step + 1], amount, conversion, adjustment, step_payout,
            payable_from, step_at);
    here := step;
  END LOOP;
END $$;

CREATE FUNCTION payout_status_of(payout uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT status FROM payouts WHERE id = payout
$$;

-- Amounts are never updated in place: a correction is an adjustment.
CREATE FUNCTION refuse_amount_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an amount is never changed in place (%): record an adjustment', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER conversions_amount_fixed BEFORE UPDATE OF commission_cents ON conversions
  FOR EACH ROW WHEN (OLD.commission_cents IS DISTINCT FROM NEW.commission_cents) EXECUTE FUNCTION refuse_amount_change();
CREATE TRIGGER adjustments_amount_fixed BEFORE UPDATE OF amount_cents ON commission_adjustments
  FOR EACH ROW WHEN (OLD.amount_cents IS DISTINCT FROM NEW.amount_cents) EXECUTE FUNCTION refuse_amount_change();
CREATE TRIGGER payouts_amount_fixed BEFORE UPDATE OF amount_cents ON payouts
  FOR EACH ROW WHEN (OLD.amount_cents IS DISTINCT FROM NEW.amount_cents) EXECUTE FUNCTION refuse_amount_change();

CREATE FUNCTION conversion_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_follow(
    NEW.affiliate_id, NEW.id, NULL, NEW.commission_cents, coalesce(NEW.approved_at, NEW.occurred_at),
    CASE WHEN TG_OP = 'INSERT' THEN 'programme' ELSE ledger_location(OLD.status, payout_status_of(OLD.payout_id)) END,
    ledger_location(NEW.status, payout_status_of(NEW.payout_id)),
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.payout_id END, NEW.payout_id,
    NEW.occurred_at, NEW.approved_at, NEW.reversed_at, 'earned');
  RETURN NULL;
END $$;
CREATE TRIGGER conversions_ledger AFTER INSERT OR UPDATE OF status, payout_id ON conversions
  FOR EACH ROW EXECUTE FUNCTION conversion_ledger();

CREATE FUNCTION adjustment_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_follow(
    NEW.affiliate_id, NULL, NEW.id, NEW.amount_cents, CASE WHEN NEW.amount_cents < 0 THEN NULL ELSE NEW.created_at END,
    CASE WHEN TG_OP = 'INSERT' THEN 'programme' ELSE ledger_location('approved', payout_status_of(OLD.payout_id)) END,
    ledger_location('approved', payout_status_of(NEW.payout_id)),
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.payout_id END, NEW.payout_id,
    NEW.created_at, NULL, NULL,
    CASE WHEN NEW.conversion_id IS NOT NULL AND NEW.amount_cents < 0 THEN 'clawed-back' ELSE 'adjusted' END);
  RETURN NULL;
END $$;
CREATE TRIGGER adjustments_ledger AFTER INSERT OR UPDATE OF payout_id ON commission_adjustments
  FOR EACH ROW EXECUTE FUNCTION adjustment_ledger();

-- A payout's status moves the rows it holds (sent: to paid; failed: back to payable).
CREATE FUNCTION payout_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  held record;
BEGIN
  FOR held IN SELECT * FROM conversions WHERE payout_id = NEW.id ORDER BY id LOOP
    PERFORM ledger_follow(
      held.affiliate_id, held.id, NULL, held.commission_cents, coalesce(held.approved_at, held.occurred_at),
      ledger_location(held.status, OLD.status), ledger_location(held.status, NEW.status), NEW.id, NEW.id,
      held.occurred_at, held.approved_at, held.reversed_at, 'earned');
  END LOOP;
  FOR held IN SELECT * FROM commission_adjustments WHERE payout_id = NEW.id ORDER BY id LOOP
    PERFORM ledger_follow(
      held.affiliate_id, NULL, held.id, held.amount_cents,
      CASE WHEN held.amount_cents < 0 THEN NULL ELSE held.created_at END,
      ledger_location('approved', OLD.status), ledger_location('approved', NEW.status), NEW.id, NEW.id,
      held.created_at, NULL, NULL, 'adjusted');
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER payouts_ledger AFTER UPDATE OF status ON payouts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION payout_ledger();

-- Today's money, entered as the movements that brought it where it is.
SELECT ledger_follow(c.affiliate_id, c.id, NULL, c.commission_cents, coalesce(c.approved_at, c.occurred_at), 'programme',
                     ledger_location(c.status, p.status), NULL, c.payout_id, c.occurred_at, c.approved_at, c.reversed_at,
                     'earned')
FROM conversions c LEFT JOIN payouts p ON p.id = c.payout_id
WHERE c.status <> 'reversed'
ORDER BY c.id;
-- A reversed commission was earned (and approved, if it was), then reversed.
SELECT ledger_follow(c.affiliate_id, c.id, NULL, c.commission_cents, coalesce(c.approved_at, c.occurred_at), 'programme',
                     CASE WHEN c.approved_at IS NULL THEN 'pending' ELSE 'payable' END, NULL, NULL, c.occurred_at,
                     c.approved_at, NULL, 'earned'),
       ledger_follow(c.affiliate_id, c.id, NULL, c.commission_cents, coalesce(c.approved_at, c.occurred_at),
                     CASE WHEN c.approved_at IS NULL THEN 'pending' ELSE 'payable' END, 'programme', NULL, NULL,
                     c.occurred_at, c.approved_at, coalesce(c.reversed_at, c.occurred_at), 'earned')
FROM conversions c
WHERE c.status = 'reversed'
ORDER BY c.id;
SELECT ledger_follow(a.affiliate_id, NULL, a.id, a.amount_cents, CASE WHEN a.amount_cents < 0 THEN NULL ELSE a.created_at END,
                     'programme', ledger_location('approved', p.status), NULL, a.payout_id, a.created_at, NULL, NULL,
                     CASE WHEN a.conversion_id IS NOT NULL AND a.amount_cents < 0 THEN 'clawed-back' ELSE 'adjusted' END)
FROM commission_adjustments a LEFT JOIN payouts p ON p.id = a.payout_id
ORDER BY a.id;
