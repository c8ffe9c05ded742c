-- The notification policy (issue 14 items 3-4, packages/domain/src/notice-policy.ts): per organisation,
-- recipient and channel, non-EMERGENCY notices are grouped into a window, repeated after an interval and
-- capped per hour; heat CAUTION alerts at a DANGER site are inhibited. Everything the policy held back is
-- on record: a `notifications` row with status 'withheld' and its reason, and each message's alerts in
-- notification_alerts, so the log and each alert's timeline say why a message was or was not sent.

-- A grouped or summary message covers several alerts (its alert_id is the newest of them); 020 makes the
-- column nullable too, for site notices: dropping NOT NULL twice is harmless.
ALTER TABLE notifications ALTER COLUMN alert_id DROP NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_status_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_status_check
  CHECK (status IN ('queued','sent','delivered','failed','withheld'));
ALTER TABLE notifications
  -- NULL: written before 021, or not an alert notice (a mail, a test message).
  ADD COLUMN reason text CHECK (reason IN ('emergency','first','repeat','held','grouped','capped',
                                           'capSummary','inhibited')),
  -- The policy values the decision used, and for a summary how many alerts wait in the console.
  ADD COLUMN policy jsonb;

-- The alerts a notice covers (one for most; every held alert for a grouped message; every capped alert
-- for a summary).
CREATE TABLE notification_alerts (
  notification_id  text NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  alert_id         text NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  PRIMARY KEY (notification_id, alert_id)
);
CREATE INDEX notification_alerts_alert_idx ON notification_alerts (alert_id);

-- One recipient on one channel in one organisation: the group window and the hour of the cap. Row-locked
-- while a decision is taken, so two servers never both send the same window.
CREATE TABLE notice_buckets (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- 'user:<id>' for staff, 'phone:<E.164>' for a number outside the console.
  recipient_key    text NOT NULL,
  channel          text NOT NULL CHECK (channel IN ('PHONE_CALL','SMS')),
  user_id          text REFERENCES users(id) ON DELETE SET NULL,
  -- The number messages go to (as of the last decision).
  recipient        text,
  last_sent_at     timestamptz,
  -- When the held alerts (or the cap's summary) go: the leader's sweep picks the due rows.
  due_at           timestamptz,
  held             integer NOT NULL DEFAULT 0,
  hour_started_at  timestamptz,
  hour_sent        integer NOT NULL DEFAULT 0,
  capped           integer NOT NULL DEFAULT 0,
  summary_sent     boolean NOT NULL DEFAULT false,
  updated_at       timestamptz NOT NULL,
  UNIQUE (organization_id, recipient_key, channel)
);
CREATE INDEX notice_buckets_due_idx ON notice_buckets (due_at) WHERE due_at IS NOT NULL;

-- One alert offered to one bucket: where it stands and when its reminder is due (a still-open,
-- unconfirmed alert is offered again after the repeat interval; NULL: no reminder).
CREATE TABLE notice_items (
  bucket_id        text NOT NULL REFERENCES notice_buckets(id) ON DELETE CASCADE,
  alert_id         text NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  state            text NOT NULL CHECK (state IN ('sent','held','capped','summarised','inhibited')),
  last_notice_at   timestamptz NOT NULL,
  repeat_at        timestamptz,
  PRIMARY KEY (bucket_id, alert_id)
);
CREATE INDEX notice_items_repeat_idx ON notice_items (repeat_at) WHERE repeat_at IS NOT NULL;
CREATE INDEX notice_items_alert_idx ON notice_items (alert_id);
