-- Outgoing webhooks for operators (docs/product/webhooks.md, docs/decisions/025-outgoing-webhooks.md):
-- the endpoints an operator registers, the events the product emits (written in the transaction of
-- what they announce), one delivery per event and endpoint (the outbox the worker drains), and the
-- log of every attempt. Ids and amounts only: no name, e-mail address or payment detail is kept here.
-- Numbered 0008: 0007 is kept for the commission ledger (the runner applies any file it has not
-- applied, in name order, so a gap is fine).

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL,
  description text,
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- The signing secret, sealed with the data encryption key (lib/encryption.ts); after a rotation the
  -- previous one signs too until previous_secret_expires_at (docs/product/webhooks.md#secret-rotation).
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  secret_rotated_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (cardinality(event_types) > 0),
  CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))
);

-- One row per event. `seq` orders the events as they are dispatched to the endpoints;
-- `affiliate_id` is the key deliveries keep their order by (docs/product/webhooks.md#ordering).
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  type text NOT NULL,
  affiliate_id text,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  -- Set once the event has its deliveries (one per endpoint subscribed at that moment).
  dispatched_at timestamptz
);
CREATE INDEX webhook_events_undispatched_idx ON webhook_events (seq) WHERE dispatched_at IS NULL;
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);

-- One event to one endpoint: the outbox the delivery worker drains, with leases and back-off like
-- the e-mail outbox. `attempts` counts every attempt (it numbers the log); `queued_at_attempt` is
-- its value when the delivery was last queued (0, or at a replay): the back-off counts from there.
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  affiliate_id text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  queued_at_attempt integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
-- The earlier deliveries of an affiliate to an endpoint, which a later one waits for.
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (endpoint_id, affiliate_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

-- Every attempt: when, how long, the receiver's status or why it failed (a code, never its answer).
CREATE TABLE webhook_delivery_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, attempt);
