-- The programme at work (docs/product/calls-and-data.md#data-model, docs/product/money.md#premium-tier, docs/product/routes-and-screens.md#operator-console, docs/product/rules-and-constants.md#security): install attribution, RevenueCat events,
-- jobs, the e-mail outbox, payout exports and retention bookkeeping. Money in integer cents (USD).

-- One row per app user at first launch (attributed or not). An app user is attributed at most once:
-- the unique key is the rule; an un-attributed install may still be claimed by a typed code later.
CREATE TABLE installs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_user_id text NOT NULL UNIQUE,
  platform text NOT NULL CHECK (platform IN ('ios', 'android')),
  click_id bigint REFERENCES clicks (id),
  referral_code_id bigint REFERENCES referral_codes (id),
  affiliate_id text REFERENCES affiliates (id),
  method text CHECK (method IN ('tracking_id', 'code_claim', 'ip_match')),
  confidence real CHECK (confidence >= 0 AND confidence <= 1),
  ip_hash text,                                -- keyed hash; personal: cleared by the retention job
  device jsonb,                                -- the app's device fields (docs/product/calls-and-data.md#visit-record); personal, idem
  attributed_at timestamptz,
  personal_data_cleared_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((affiliate_id IS NULL) = (method IS NULL))
);
CREATE INDEX installs_affiliate_idx ON installs (affiliate_id, created_at);

-- Every identity RevenueCat may use for an install's user (app user id, original id, aliases,
-- transfer targets). An alias belongs to one install: the attribution follows the person (docs/product/attribution.md#conversions).
CREATE TABLE app_user_aliases (
  alias text PRIMARY KEY,
  install_id bigint NOT NULL REFERENCES installs (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_user_aliases_install_idx ON app_user_aliases (install_id);

-- Each RevenueCat webhook event once (idempotency on event.id), with what it did.
CREATE TABLE revenuecat_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  app_user_id text,
  environment text,
  outcome text NOT NULL,                       -- conversion, refund, clawback, ignored, unattributed, …
  conversion_id bigint REFERENCES conversions (id),
  payload jsonb NOT NULL,
  event_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revenuecat_events_received_idx ON revenuecat_events (received_at);

-- A conversion is an install's first paid subscription: one per install.
ALTER TABLE conversions ADD COLUMN install_id bigint UNIQUE REFERENCES installs (id);
ALTER TABLE conversions ADD COLUMN price_cents integer;
ALTER TABLE conversions ADD COLUMN price_currency text;
ALTER TABLE conversions ADD COLUMN refunded_at timestamptz;
ALTER TABLE conversions ADD COLUMN transaction_id text;
ALTER TABLE conversions ADD COLUMN original_transaction_id text;
CREATE INDEX conversions_pending_idx ON conversions (occurred_at) WHERE status = 'pending';

-- Payout bookkeeping: why a payout failed, and the exports an operator downloaded.
ALTER TABLE payouts ADD COLUMN failure_reason text;
ALTER TABLE payouts ADD COLUMN amount_paid_cents integer;   -- in the payout's paid currency (EUR for SEPA)
ALTER TABLE payouts ADD COLUMN paid_currency text;
ALTER TABLE payouts ADD COLUMN export_id uuid;
CREATE INDEX payouts_status_idx ON payouts (status, scheduled_for);
-- A failed payout gives its amounts back to the balance: it no longer holds its period, so a run
-- that has not finished yet can pay the same period in a new payout. One live payout per period.
ALTER TABLE payouts DROP CONSTRAINT payouts_affiliate_id_period_start_key;
CREATE UNIQUE INDEX payouts_affiliate_period_key ON payouts (affiliate_id, period_start) WHERE status <> 'failed';

CREATE TABLE payout_exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('paypal', 'sepa')),
  format text NOT NULL,                        -- 'paypal-payouts-csv', 'pain.001.001.09', 'pain.001.001.03'
  message_id text NOT NULL UNIQUE,
  payday date NOT NULL,
  payout_count integer NOT NULL,
  control_sum_cents bigint NOT NULL,
  currency text NOT NULL,
  exchange_rate numeric(12, 6),
  file_name text NOT NULL,
  content text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE payouts ADD CONSTRAINT payouts_export_fk FOREIGN KEY (export_id) REFERENCES payout_exports (id);

-- Jobs (docs/product/rules-and-constants.md#jobs): one row per run key (e.g. the payday of a monthly payout run). A run that is
-- `done` is never repeated; a `running` one left by a killed process is resumed (every job is
-- idempotent). The advisory lock decides which process runs it.
CREATE TABLE job_runs (
  job text NOT NULL,
  run_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 1,
  details jsonb,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (job, run_key)
);

-- Transactional outbox of e-mails: written in the same transaction as the event it announces,
-- sent by a worker that retries with back-off (a request never waits for SMTP).
CREATE TABLE email_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  dedupe_key text UNIQUE,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  reply_to text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  sent_at timestamptz,
  gave_up_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;

-- Retention (docs/product/rules-and-constants.md#retention): activity for the 12-month inactivity rule, its warning, and the purge marks.
ALTER TABLE affiliates ADD COLUMN last_active_at timestamptz;
ALTER TABLE affiliates ADD COLUMN inactivity_warned_at timestamptz;
ALTER TABLE affiliates ADD COLUMN personal_data_purged_at timestamptz;
ALTER TABLE clicks ADD COLUMN personal_data_cleared_at timestamptz;
CREATE INDEX clicks_retention_idx ON clicks (created_at) WHERE personal_data_cleared_at IS NULL;

-- Attribution and refunds (docs/product/attribution.md#install-attribution, docs/product/attribution.md#conversions): the IP + platform match reads the latest visits of one
-- network (keyed hash); a store refund finds the conversion of the refunded transaction.
CREATE INDEX clicks_ip_hash_idx ON clicks (ip_hash, created_at) WHERE ip_hash IS NOT NULL;
CREATE INDEX conversions_transaction_idx ON conversions (transaction_id);
CREATE INDEX conversions_original_transaction_idx ON conversions (original_transaction_id);

-- Retention (docs/product/rules-and-constants.md#retention): what the daily job has not cleared yet, found without a full scan,
-- and whether a click was attributed to an install.
CREATE INDEX installs_click_idx ON installs (click_id) WHERE click_id IS NOT NULL;
CREATE INDEX installs_retention_idx ON installs (created_at) WHERE personal_data_cleared_at IS NULL;
CREATE INDEX revenuecat_events_untrimmed_idx ON revenuecat_events (received_at) WHERE payload <> '{}'::jsonb;
CREATE INDEX email_outbox_finished_idx ON email_outbox ((coalesce(sent_at, gave_up_at))) WHERE sent_at IS NOT NULL OR gave_up_at IS NOT NULL;
