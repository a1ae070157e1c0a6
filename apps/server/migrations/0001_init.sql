-- Public website: support tickets, referral codes, landing-page visits (clicks), web vitals, audit log.
-- Times are timestamptz (UTC); personal data is kept to what the feature needs.

CREATE TABLE support_tickets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL CHECK (subject IN ('account', 'subscription', 'technical', 'feedback', 'other')),
  message text NOT NULL,
  language text NOT NULL CHECK (language IN ('fr', 'en')),
  ip_hash text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'handled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  handled_at timestamptz
);
CREATE INDEX support_tickets_created_at_idx ON support_tickets (created_at DESC);

-- Referral codes belong to affiliates (their table arrives with affiliate accounts).
-- Codes are stored upper-case; lookups upper-case the input (case-insensitive match).
CREATE TABLE referral_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code = upper(code)),
  affiliate_id text NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_codes_affiliate_idx ON referral_codes (affiliate_id);

-- Every landing-page visit, counted or not (docs/product/calls-and-data.md#visit-record device fingerprint + deep-link payload).
CREATE TABLE clicks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tracking_id text NOT NULL UNIQUE,
  type text NOT NULL CHECK (type IN ('ref', 'download')),
  code text,                                   -- as requested, upper-cased; may be unknown
  referral_code_id bigint REFERENCES referral_codes (id),
  session_id text,
  visitor_key text,                            -- keyed hash of session id, or of IP + user agent
  ip_hash text,                                -- keyed hash; the raw IP is never stored
  user_agent text,
  language text,
  timezone text,
  screen_resolution text,
  platform text CHECK (platform IN ('ios', 'android', 'desktop')),
  color_depth integer,
  device_memory real,
  hardware_concurrency integer,
  client_timestamp timestamptz,
  referrer text,
  path text,
  query jsonb,
  is_bot boolean NOT NULL DEFAULT false,
  counted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clicks_referral_code_created_idx ON clicks (referral_code_id, created_at);
CREATE INDEX clicks_created_at_idx ON clicks (created_at);

-- One counted click per code per visitor per UTC clock hour: the unique key is the rule.
CREATE TABLE click_counts (
  referral_code_id bigint NOT NULL REFERENCES referral_codes (id),
  visitor_key text NOT NULL,
  hour_bucket timestamptz NOT NULL,
  click_id bigint NOT NULL REFERENCES clicks (id),
  PRIMARY KEY (referral_code_id, visitor_key, hour_bucket)
);

-- Web vitals reported with consent (sampled); operators read p75 per page.
CREATE TABLE web_vitals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  page text NOT NULL,
  name text NOT NULL CHECK (name IN ('CLS', 'FCP', 'INP', 'LCP', 'TTFB')),
  value double precision NOT NULL,
  rating text CHECK (rating IN ('good', 'needs-improvement', 'poor')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX web_vitals_page_name_idx ON web_vitals (page, name, created_at);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor text,                                  -- user id, 'system' or null for anonymous
  action text NOT NULL,
  subject text,
  details jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_at_idx ON audit_log (created_at DESC);
