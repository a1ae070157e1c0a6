-- Fraud review of the affiliate programme (docs/product/review.md, docs/decisions/027-fraud-review.md):
-- the keyed hashes that signals compare, the groups' policies, review cases and their signals, and
-- a held commission as an account of its own in the ledger (docs/product/money.md#the-ledger).

-- The affiliate's own identity, as keyed hashes (the IP-hash key; never the raw values): the signup
-- e-mail, the signup IP and the signup browser (its landing-page visitor session, when it had one).
-- A migration has no key: the e-mail hashes of existing affiliates are computed by the server's
-- one-time job (domain/review.ts, backfillReviewIdentities).
ALTER TABLE affiliates ADD COLUMN email_hash text;
ALTER TABLE affiliates ADD COLUMN signup_ip_hash text;
ALTER TABLE affiliates ADD COLUMN signup_device_hash text;

-- The payout account (PayPal address lower-case, or IBAN without spaces upper-case) as a keyed hash,
-- to find one account on several affiliates. Existing rows: the one-time job (an IBAN is sealed and
-- the key is not in the database); every new or updated method carries it.
ALTER TABLE payment_methods ADD COLUMN payout_account_hash text;
CREATE INDEX payment_methods_account_hash_idx ON payment_methods (payout_account_hash) WHERE payout_account_hash IS NOT NULL;

-- A visit made from the signed-in browser of the affiliate who owns the visited code.
ALTER TABLE clicks ADD COLUMN self_visit boolean NOT NULL DEFAULT false;

-- What each signal does in each group: flag (a case opens) or hold (the case also holds the affected
-- commissions until an operator decides). A group without a row flags.
CREATE TABLE review_policies (
  group_id text NOT NULL REFERENCES partner_groups (id),
  signal text NOT NULL CHECK (signal IN ('self-referral', 'shared-payout-account', 'click-burst', 'refund-rate',
                                         'disposable-email')),
  action text NOT NULL CHECK (action IN ('flag', 'hold')),
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, signal)
);
-- The default group flags only: every existing affiliate's money moves exactly as before.
INSERT INTO review_policies (group_id, signal, action, updated_at)
SELECT 'default', s, 'flag', '1970-01-01T00:00:00Z'
FROM unnest(ARRAY['self-referral', 'shared-payout-account', 'click-burst', 'refund-rate', 'disposable-email']) AS s;

-- A case: an affiliate's signals waiting for an operator's decision. One open case per affiliate.
CREATE TABLE review_cases (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  affiliate_id text NOT NULL REFERENCES affiliates (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'rejected', 'banned')),
  opened_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  reason text,
  CHECK ((status = 'open') = (decided_at IS NULL))
);
CREATE UNIQUE INDEX review_cases_open_idx ON review_cases (affiliate_id) WHERE status = 'open';
CREATE INDEX review_cases_queue_idx ON review_cases (status, opened_at DESC);

-- A signal: its kind, what the policy made it do, its evidence (counts, dates, codes: never an
-- e-mail, an IP or an account number), and the install it is about, when it is about one. The key
-- says which occurrence it is (an install, a day's burst): one signal per key and affiliate, ever,
-- so that a decision is not asked twice for the same thing.
CREATE TABLE review_signals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  case_id bigint NOT NULL REFERENCES review_cases (id),
  affiliate_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('self-referral', 'shared-payout-account', 'click-burst', 'refund-rate',
                                     'disposable-email')),
  action text NOT NULL CHECK (action IN ('flag', 'hold')),
  evidence jsonb NOT NULL,
  install_id bigint,
  dedupe_key text NOT NULL,
  detected_at timestamptz NOT NULL,
  UNIQUE (affiliate_id, dedupe_key)
);
CREATE INDEX review_signals_case_idx ON review_signals (case_id);

-- A commission held by a case until the operator decides: `review_hold` while it is held, the case
-- that held it (kept after the decision, for the case's page), and when it was last held or released.
ALTER TABLE conversions ADD COLUMN review_hold boolean NOT NULL DEFAULT false;
ALTER TABLE conversions ADD COLUMN review_case_id bigint REFERENCES review_cases (id);
ALTER TABLE conversions ADD COLUMN review_changed_at timestamptz;
ALTER TABLE conversions ADD CONSTRAINT conversions_review_hold_case CHECK (NOT review_hold OR review_case_id IS NOT NULL);
CREATE INDEX conversions_review_case_idx ON conversions (review_case_id) WHERE review_case_id IS NOT NULL;

-- The ledger gains the account `held` and its two movements: `held` (pending or payable → held) and
-- `released-from-review` (held → pending or payable). A held commission that is rejected is
-- `reversed` from held to the programme.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('earned', 'approved', 'scheduled', 'paid', 'payout-failed', 'released', 'reversed', 'adjusted',
                  'clawed-back', 'held', 'released-from-review'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_from_account_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_from_account_check
  CHECK (from_account IN ('programme', 'pending', 'payable', 'held', 'in-payout', 'paid'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_to_account_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_to_account_check
  CHECK (to_account IN ('programme', 'pending', 'payable', 'held', 'in-payout', 'paid'));

-- Where a row's amount is: as before, and `held` while a case holds a commission that no payout holds.
CREATE FUNCTION ledger_location(row_status text, payout_status text, on_hold boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN row_status = 'reversed' THEN 'programme'
    WHEN payout_status IN ('sent', 'paid') THEN 'paid'
    WHEN payout_status = 'scheduled' THEN 'in-payout'
    WHEN row_status = 'paid' THEN 'paid'
    WHEN on_hold THEN 'held'
    WHEN row_status = 'pending' THEN 'pending'
    ELSE 'payable'
  END
$$;

-- As before (migrations/0007_ledger.sql), with the review's movements: into `held` from where the row
-- was (first earned, when it enters the ledger already held), and out of it to where its status puts
-- it, or back to the programme when it is reversed. `review_at` is when it was held or released.
CREATE FUNCTION ledger_follow(
  affiliate text, conversion bigint, adjustment bigint, amount bigint, payable_from timestamptz,
  from_account text, to_account text, old_payout uuid, new_payout uuid,
  earned_at timestamptz, approved_at timestamptz, reversed_at timestamptz, entry_kind text, review_at timestamptz
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  base text;
BEGIN
  IF from_account = to_account OR amount = 0 THEN
    RETURN;
  END IF;
  IF to_account = 'held' THEN
    base := CASE WHEN from_account = 'programme' THEN 'pending'
                 WHEN from_account IN ('in-payout', 'paid') THEN 'payable'
                 ELSE from_account END;
    PERFORM ledger_follow(affiliate, conversion, adjustment, amount, payable_from, from_account, base, old_payout,
                          new_payout, earned_at, approved_at, reversed_at, entry_kind);
    INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id,
                                adjustment_id, payout_id, payable_from, effective_at)
    VALUES (affiliate, 'held', base, 'held', amount, conversion, adjustment, NULL, payable_from,
            coalesce(review_at, now()));
    RETURN;
  END IF;
  IF from_account = 'held' THEN
    IF to_account = 'programme' THEN
      INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id,
                                  adjustment_id, payout_id, payable_from, effective_at)
      VALUES (affiliate, 'reversed', 'held', 'programme', amount, conversion, adjustment, NULL, payable_from,
              coalesce(reversed_at, now()));
      RETURN;
    END IF;
    base := CASE WHEN to_account = 'pending' THEN 'pending' ELSE 'payable' END;
    INSERT INTO ledger_entries (affiliate_id, kind, from_account, to_account, amount_cents, conversion_id,
                                adjustment_id, payout_id, payable_from, effective_at)
    VALUES (affiliate, 'released-from-review', 'held', base, amount, conversion, adjustment, NULL, payable_from,
            coalesce(review_at, now()));
    PERFORM ledger_follow(affiliate, conversion, adjustment, amount, payable_from, base, to_account, old_payout,
                          new_payout, earned_at, approved_at, reversed_at, entry_kind);
    RETURN;
  END IF;
  PERFORM ledger_follow(affiliate, conversion, adjustment, amount, payable_from, from_account, to_account, old_payout,
                        new_payout, earned_at, approved_at, reversed_at, entry_kind);
END $$;

CREATE OR REPLACE FUNCTION conversion_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_follow(
    NEW.affiliate_id, NEW.id, NULL, NEW.commission_cents, coalesce(NEW.approved_at, NEW.occurred_at),
    CASE WHEN TG_OP = 'INSERT' THEN 'programme'
         ELSE ledger_location(OLD.status, payout_status_of(OLD.payout_id), OLD.review_hold) END,
    ledger_location(NEW.status, payout_status_of(NEW.payout_id), NEW.review_hold),
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.payout_id END, NEW.payout_id,
    NEW.occurred_at, NEW.approved_at, NEW.reversed_at, 'earned', NEW.review_changed_at);
  RETURN NULL;
END $$;
DROP TRIGGER conversions_ledger ON conversions;
CREATE TRIGGER conversions_ledger AFTER INSERT OR UPDATE OF status, payout_id, review_hold ON conversions
  FOR EACH ROW EXECUTE FUNCTION conversion_ledger();

CREATE OR REPLACE FUNCTION payout_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  held record;
BEGIN
  FOR held IN SELECT * FROM conversions WHERE payout_id = NEW.id ORDER BY id LOOP
    PERFORM ledger_follow(
      held.affiliate_id, held.id, NULL, held.commission_cents, coalesce(held.approved_at, held.occurred_at),
      ledger_location(held.status, OLD.status, held.review_hold),
      ledger_location(held.status, NEW.status, held.review_hold), NEW.id, NEW.id,
      held.occurred_at, held.approved_at, held.reversed_at, 'earned', held.review_changed_at);
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
