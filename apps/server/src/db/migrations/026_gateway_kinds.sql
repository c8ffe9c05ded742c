-- Gateways people can buy (issue 18): what a gateway speaks, chosen when it is registered.
ALTER TABLE gateways ADD COLUMN kind text NOT NULL DEFAULT 'native'
  CHECK (kind IN ('native', 'minew', 'aprilbrother', 'ingics', 'chirpstack', 'thethingsstack'));
-- Devices that can send only a URL (April Brother, Ingics) put a per-gateway secret in its path:
-- only its SHA-256 is kept, like the credential's, and it is replaced when the credential is rotated.
ALTER TABLE gateways ADD COLUMN path_secret_hash text;

-- Devices a gateway heard that are not registered bracelets of its organisation: a list for the
-- console ("heard, not registered"), never readings. At most UNKNOWN_DEVICES_PER_GATEWAY rows per
-- gateway: each write evicts the least recently heard beyond that.
CREATE TABLE unknown_devices (
  gateway_id      text NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
  device_id       text NOT NULL,
  frame           text NOT NULL,
  rssi            integer,
  beacon_id       text,
  first_heard_at  timestamptz NOT NULL,
  last_heard_at   timestamptz NOT NULL,
  times_heard     bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (gateway_id, device_id)
);
CREATE INDEX unknown_devices_recent_idx ON unknown_devices (gateway_id, last_heard_at DESC, device_id);

-- Per-gateway rate limit on advertisements (a token bucket): one row per gateway, taken with a
-- single conditional upsert so concurrent requests, on any server, cannot overdraw it.
CREATE TABLE gateway_rate_buckets (
  gateway_id  text PRIMARY KEY REFERENCES gateways(id) ON DELETE CASCADE,
  tokens      double precision NOT NULL,
  at          timestamptz NOT NULL
);
