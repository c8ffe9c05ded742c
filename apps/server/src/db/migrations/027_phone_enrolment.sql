-- Enrolling a phone as a SMARTPHONE gateway (issue 16 item 2, docs/phone-gateway.md "Enrolment").
-- A one-time code: only its SHA-256 is kept. It is used once (used_at), lasts 15 minutes
-- (expires_at), and a newer code for the same gateway replaces the older unused ones (replaced_at).
-- The phone consumes it with one UPDATE ... WHERE used_at IS NULL AND replaced_at IS NULL AND
-- expires_at > now, so two phones racing for one code cannot both get the credential.
CREATE TABLE gateway_enrolments (
  code_hash    text PRIMARY KEY,
  gateway_id   text NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
  created_by   text REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  replaced_at  timestamptz
);
CREATE INDEX gateway_enrolments_gateway_idx ON gateway_enrolments (gateway_id) WHERE used_at IS NULL AND replaced_at IS NULL;

-- The gateway's own status, as it last reported it in a batch's optional `status`
-- (docs/gateway-protocol.md): when, its battery, whether it charges, its app version. A phone
-- sends it; a stationary box may. Kept only when newer than the stored one.
ALTER TABLE gateways
  ADD COLUMN status_at          timestamptz,
  ADD COLUMN status_battery     smallint CHECK (status_battery BETWEEN 0 AND 100),
  ADD COLUMN status_charging    boolean,
  ADD COLUMN status_app_version text;
