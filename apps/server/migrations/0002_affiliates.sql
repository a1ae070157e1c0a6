-- Affiliate accounts (docs/product/rules-and-constants.md#accounts-and-sessions, docs/product/rules-and-constants.md#security): the auth library's tables, affiliate profiles, payment methods,
-- conversions, adjustments and payouts. Money in integer cents (USD); times timestamptz (UTC).

-- Sign-in accounts, sessions and one-time tokens, managed by the auth library (better-auth, with its
-- admin plugin: role and ban live here only, docs/product/calls-and-data.md#data-model). Column names are the library's fields in snake case.
CREATE TABLE auth_users (
  id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  email_verified boolean NOT NULL DEFAULT false,
  image text,
  role text NOT NULL DEFAULT 'affiliate' CHECK (role IN ('affiliate', 'admin')),
  banned boolean NOT NULL DEFAULT false,
  ban_reason text,
  ban_expires timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_sessions (
  id text PRIMARY KEY,
  token text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  ip_address text,
  user_agent text,
  impersonated_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);

CREATE TABLE auth_accounts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  provider_id text NOT NULL,
  user_id text NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  access_token text,
  refresh_token text,
  id_token text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  scope text,
  password text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_accounts_user_idx ON auth_accounts (user_id);

CREATE TABLE auth_verifications (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  value text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_verifications_identifier_idx ON auth_verifications (identifier);

-- Fixed-window counters of the sign-in, signup and reset limits (docs/product/rules-and-constants.md#sign-in-limits): in the database so that
-- several server processes share them. `key` names the rule and the client (IP or e-mail hash).
CREATE TABLE rate_limits (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);

-- The affiliate profile, 1:1 with its sign-in account. A deleted account leaves an anonymised row
-- (user_id and personal fields null) so payouts and conversions keep their owner for 5 years.
CREATE TABLE affiliates (
  id text PRIMARY KEY,
  user_id text UNIQUE REFERENCES auth_users (id) ON DELETE SET NULL,
  first_name text,
  last_name text,
  phone text,
  company_name text,
  website text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active', 'refused')),
  language text NOT NULL DEFAULT 'fr' CHECK (language IN ('fr', 'en')),
  terms_accepted_at timestamptz,
  notify_conversions boolean NOT NULL DEFAULT true,
  notify_payments boolean NOT NULL DEFAULT true,
  notify_news boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One payment method per affiliate; no row = not configured. IBAN and BIC are encrypted at rest
-- (AES-256-GCM, "v1:<key id>:…"); the last 4 IBAN characters are kept in clear for the masked view.
CREATE TABLE payment_methods (
  id text PRIMARY KEY,
  affiliate_id text NOT NULL UNIQUE REFERENCES affiliates (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('paypal', 'bank_transfer')),
  paypal_email text,
  bank_name text,
  account_holder text,
  iban_encrypted text,
  bic_encrypted text,
  iban_last4 text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (type = 'paypal' AND paypal_email IS NOT NULL)
    OR (type = 'bank_transfer' AND bank_name IS NOT NULL AND account_holder IS NOT NULL AND iban_encrypted IS NOT NULL AND bic_encrypted IS NOT NULL)
  )
);

-- Referral codes now belong to affiliate profiles.
ALTER TABLE referral_codes
  ADD CONSTRAINT referral_codes_affiliate_fk FOREIGN KEY (affiliate_id) REFERENCES affiliates (id);

-- Payouts (docs/product/money.md#payouts): one per affiliate and period; the method is a snapshot taken when scheduled.
CREATE TABLE payouts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  affiliate_id text NOT NULL REFERENCES affiliates (id),
  period_start date NOT NULL,
  period_end date NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  method text NOT NULL CHECK (method IN ('paypal', 'bank_transfer')),
  method_snapshot jsonb NOT NULL,
  exchange_rate numeric(12, 6),
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'sent', 'paid', 'failed')),
  reference text,
  scheduled_for date NOT NULL,
  sent_at timestamptz,
  paid_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (affiliate_id, period_start)
);
CREATE INDEX payouts_affiliate_idx ON payouts (affiliate_id, scheduled_for DESC);

-- Conversions (docs/product/calls-and-data.md#data-model, docs/product/money.md#premium-tier): a user's first paid subscription, idempotent on the source event.
CREATE TABLE conversions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_event_id text NOT NULL UNIQUE,
  app_user_id text NOT NULL,
  affiliate_id text NOT NULL REFERENCES affiliates (id),
  referral_code_id bigint REFERENCES referral_codes (id),
  store text,
  product_id text,
  occurred_at timestamptz NOT NULL,
  commission_cents integer NOT NULL CHECK (commission_cents >= 0),
  rate_tier text NOT NULL CHECK (rate_tier IN ('standard', 'premium')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'paid', 'reversed')),
  approved_at timestamptz,
  reversed_at timestamptz,
  reversal_reason text,
  payout_id uuid REFERENCES payouts (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversions_affiliate_occurred_idx ON conversions (affiliate_id, occurred_at);
CREATE INDEX conversions_code_idx ON conversions (referral_code_id);
CREATE INDEX conversions_payout_idx ON conversions (payout_id);

-- Signed corrections of earnings (e.g. a refund after payment: a negative amount taken from the next payout).
CREATE TABLE commission_adjustments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  affiliate_id text NOT NULL REFERENCES affiliates (id),
  conversion_id bigint REFERENCES conversions (id),
  amount_cents integer NOT NULL,
  reason text NOT NULL,
  payout_id uuid REFERENCES payouts (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commission_adjustments_affiliate_idx ON commission_adjustments (affiliate_id);
