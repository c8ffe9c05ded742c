-- Snooze (issue 8 item 3): staff silence one CAUTION or DEVICE_STATUS alert type of one wearer for at
-- most 12 hours, with a reason. EMERGENCY and CRITICAL types can never be snoozed (the CHECK lists the
-- snoozable types). A snooze expires by itself at `until`; `ended_at` is an early end by staff.
-- While one covers an alert's opening, the alert is recorded (notify false, snooze_id set) and nobody
-- is sent an SMS or called.
CREATE TABLE alert_snoozes (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  wearer_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  alert_type       text NOT NULL
    CHECK (alert_type IN ('HEART_RATE','ADVANCED_HEATSTROKE_RISK','AWAKENING_ALERT','DISCONNECTION','NON_WEARING')),
  reason           text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
  created_by       text REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL,
  until            timestamptz NOT NULL,
  ended_at         timestamptz,
  ended_by         text REFERENCES users(id) ON DELETE SET NULL,
  CHECK (until > created_at AND until <= created_at + interval '12 hours')
);
CREATE INDEX alert_snoozes_wearer_idx ON alert_snoozes (wearer_id, alert_type, until DESC);
CREATE INDEX alert_snoozes_organization_idx ON alert_snoozes (organization_id, created_at DESC);

ALTER TABLE alerts ADD COLUMN snooze_id text REFERENCES alert_snoozes(id) ON DELETE SET NULL;
