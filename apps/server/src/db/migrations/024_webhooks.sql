-- Webhooks (issue 19 item 1): an organisation's endpoints, a durable outbox of deliveries written in
-- the same transaction as the event it tells of, and each attempt. docs/webhooks.md.
CREATE TABLE webhook_endpoints (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url              text NOT NULL,
  description      text NOT NULL DEFAULT '',
  event_types      text[] NOT NULL,
  -- The signing secret (whsec_...), sealed with the server's secret box (AES-256-GCM).
  secret_sealed    text NOT NULL,
  enabled          boolean NOT NULL DEFAULT true,
  disabled_reason  text CHECK (disabled_reason IN ('manual', 'failing')),
  -- The first failed delivery of the current streak; a day of it disables the endpoint.
  failing_since    timestamptz,
  created_by       text REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints (organization_id) WHERE enabled;

-- One row per event that at least one endpoint wanted; the payload is the body sent, byte for byte.
CREATE TABLE webhook_events (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type             text NOT NULL,
  payload          text NOT NULL,
  created_at       timestamptz NOT NULL
);

-- One row per (event, endpoint): its id is the webhook-id, kept across every retry.
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id         text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  created_at       timestamptz NOT NULL,
  last_status_code integer,
  last_duration_ms integer,
  delivered_at     timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  delivery_id      text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt          integer NOT NULL,
  at               timestamptz NOT NULL,
  status_code      integer,
  duration_ms      integer NOT NULL,
  error            text,
  PRIMARY KEY (delivery_id, attempt)
);

-- The last online/offline state announced for a gateway (the sweep compares it with last_seen_at).
CREATE TABLE webhook_gateway_states (
  gateway_id       text PRIMARY KEY REFERENCES gateways(id) ON DELETE CASCADE,
  online           boolean NOT NULL,
  changed_at       timestamptz NOT NULL
);
