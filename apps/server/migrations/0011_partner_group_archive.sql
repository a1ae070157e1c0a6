-- Operators manage partner groups (docs/product/money.md#operators-groups-rules-and-campaigns): a group is
-- archived rather than deleted — its rule versions priced commissions that keep naming them — and only
-- while no affiliate is in it (the operator's function checks it under the group's lock). The default
-- group is where every new affiliate goes: it is never archived.
ALTER TABLE partner_groups ADD COLUMN archived_at timestamptz;
ALTER TABLE partner_groups ADD COLUMN archived_by text;
ALTER TABLE partner_groups ADD CONSTRAINT partner_groups_default_kept CHECK (id <> 'default' OR archived_at IS NULL);

-- A conversion written without its rule gets the rule its affiliate's group had in force when it
-- occurred; an event from before the group's first version (an affiliate moved into a new group,
-- whose purchase from before the move arrives late) gets that first version, as the code's pricing
-- does (domain/reward-rules.ts `ruleInForce`).
CREATE OR REPLACE FUNCTION conversion_rule_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule reward_rules%ROWTYPE;
  affiliate_group text;
BEGIN
  IF NEW.rule_id IS NULL THEN
    SELECT a.group_id INTO affiliate_group FROM affiliates a WHERE a.id = NEW.affiliate_id;
    SELECT r.* INTO rule FROM reward_rules r
    WHERE r.group_id = affiliate_group AND r.effective_from <= NEW.occurred_at
    ORDER BY r.effective_from DESC, r.version DESC LIMIT 1;
    IF NOT FOUND THEN
      SELECT r.* INTO rule FROM reward_rules r
      WHERE r.group_id = affiliate_group
      ORDER BY r.effective_from, r.version DESC LIMIT 1;
    END IF;
    NEW.rule_id := rule.id;
  ELSE
    SELECT r.* INTO rule FROM reward_rules r WHERE r.id = NEW.rule_id;
  END IF;
  IF NEW.approvable_at IS NULL THEN
    NEW.approvable_at := NEW.occurred_at + make_interval(days => rule.hold_days);
  END IF;
  RETURN NEW;
END $$;
