-- Alert notices by SMS / phone call: who gets which alerts of a group, every attempt, and the
-- escalation timers of EMERGENCY alerts (stored, so they survive a restart).

-- A group's recipients. step = escalation order (1 first). Exactly one of user_id (staff of
-- the organisation; their phone number is used) or phone_number.
CREATE TABLE group_alert_notice_settings (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id         text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  user_id          text REFERENCES users(id) ON DELETE CASCADE,
  phone_number     text,
  channel          text NOT NULL CHECK (channel IN ('PHONE_CALL','SMS')),
  alert_types      jsonb NOT NULL,
  schedule         jsonb NOT NULL,
  step             integer NOT NULL CHECK (step BETWEEN 1 AND 10),
  position         integer NOT NULL,
  CHECK ((user_id IS NULL) <> (phone_number IS NULL))
);
CREATE INDEX group_alert_notice_settings_group_idx ON group_alert_notice_settings (group_id, step);

-- Every attempt to notify someone of an alert, and its outcome.
CREATE TABLE notifications (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  alert_id           text NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  step               integer NOT NULL,
  channel            text NOT NULL CHECK (channel IN ('PHONE_CALL','SMS')),
  user_id            text REFERENCES users(id) ON DELETE SET NULL,
  recipient          text,
  provider           text NOT NULL,
  provider_id        text,
  status             text NOT NULL CHECK (status IN ('queued','sent','delivered','failed')),
  error              text,
  text               text NOT NULL,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE INDEX notifications_alert_idx ON notifications (alert_id, created_at);
CREATE INDEX notifications_organization_idx ON notifications (organization_id, created_at DESC);

-- One row per EMERGENCY alert awaiting confirmation. The sweeper escalates rows whose due_at
-- has passed; done_at is set when the alert is confirmed/closed or nothing is left to try.
CREATE TABLE notification_escalations (
  alert_id         text PRIMARY KEY REFERENCES alerts(id) ON DELETE CASCADE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  current_step     integer NOT NULL,
  -- SMS recipients of the last step were already called instead (the last resort).
  upgraded         boolean NOT NULL DEFAULT false,
  due_at           timestamptz NOT NULL,
  done_at          timestamptz,
  done_reason      text
);
CREATE INDEX notification_escalations_due_idx ON notification_escalations (due_at) WHERE done_at IS NULL;
