-- An SOS or a fall from a device no wearer holds (issue 34, item 1): a serial the organisation does
-- not know, or a bracelet with no wearer. It opens an EMERGENCY alert all the same, with no wearer:
-- the alert names the serial and the gateway that heard it (its group is the gateway's).
ALTER TABLE alerts ALTER COLUMN wearer_id DROP NOT NULL;
ALTER TABLE alerts ADD COLUMN device_serial text;
ALTER TABLE alerts ADD COLUMN gateway_id text REFERENCES gateways(id) ON DELETE SET NULL;
ALTER TABLE alerts ADD CONSTRAINT alerts_wearer_or_device CHECK (wearer_id IS NOT NULL OR device_serial IS NOT NULL);
-- As for a wearer: one open alert per device serial and type (a second press while open is the same incident).
CREATE UNIQUE INDEX alerts_one_open_device_idx ON alerts (organization_id, device_serial, type)
  WHERE status = 'OPEN' AND wearer_id IS NULL;

-- The SOS and falls of such devices, stored once (device_events keys on a bracelet row, which an
-- unknown serial has not): a gateway's resend of the same event finds it here and opens nothing.
-- The key leaves the gateway out, as device_events does: two gateways hearing one press are one event.
CREATE TABLE unassigned_device_events (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  serial_number    text NOT NULL,
  type             text NOT NULL CHECK (type IN ('SOS','FALL')),
  at               timestamptz NOT NULL,
  gateway_id       text REFERENCES gateways(id) ON DELETE SET NULL,
  bracelet_id      text REFERENCES bracelets(id) ON DELETE SET NULL,
  alert_id         text REFERENCES alerts(id) ON DELETE SET NULL,
  received_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, serial_number, type, at)
);
