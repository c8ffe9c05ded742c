-- Gateway silence alerts (issue 34 item 6): a gateway that sends nothing for its expected interval
-- is ONE alert of the gateway (level DEVICE_STATUS), notified once to its group, closed when the
-- gateway is heard again. Its wearers' DISCONNECTION alerts still open in `alerts`; their notices are
-- inhibited while it is open and covered by its message (notification_alerts).
CREATE TABLE gateway_silences (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  gateway_id       text NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
  group_id         text REFERENCES groups(id) ON DELETE SET NULL,
  level            text NOT NULL DEFAULT 'DEVICE_STATUS' CHECK (level = 'DEVICE_STATUS'),
  -- The gateway's last batch before the silence, and how many wearers it served then.
  last_heard_at    timestamptz NOT NULL,
  wearer_count     integer NOT NULL,
  opened_at        timestamptz NOT NULL,
  closed_at        timestamptz,
  CHECK (closed_at IS NULL OR closed_at >= opened_at)
);
-- One open silence per gateway; the organisation's open ones are read by the console's banner.
CREATE UNIQUE INDEX gateway_silences_one_open_idx ON gateway_silences (gateway_id) WHERE closed_at IS NULL;
CREATE INDEX gateway_silences_open_organization_idx ON gateway_silences (organization_id)
  WHERE closed_at IS NULL;
CREATE INDEX gateway_silences_gateway_opened_idx ON gateway_silences (gateway_id, opened_at DESC);

-- A gateway silence's notice has no alert (like a site heat notice) and names the silence.
ALTER TABLE notifications
  ADD COLUMN gateway_silence_id text REFERENCES gateway_silences(id) ON DELETE CASCADE;
CREATE INDEX notifications_gateway_silence_idx ON notifications (gateway_silence_id)
  WHERE gateway_silence_id IS NOT NULL;
