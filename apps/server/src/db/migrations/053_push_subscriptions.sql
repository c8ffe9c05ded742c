-- Web Push (issue 38 item 1, docs/decisions/0021-web-push.md): one's browsers subscribed to alert notices,
-- and PUSH as a notice channel beside SMS and phone calls.

-- One row per subscribed browser (PushSubscription). The endpoint is a capability URL of the push service and
-- auth the message's secret: both sealed like the other small secrets (secret-box.service.ts); endpoint_hash
-- (SHA-256 of the endpoint) finds the row again when the same browser subscribes anew. p256dh is the
-- browser's public key. session_id is the session (refresh-token family) that subscribed: when that session
-- is signed out (revoked, not merely expired) the browser gets nothing more.
CREATE TABLE push_subscriptions (
  id               text PRIMARY KEY,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id       text,
  endpoint_hash    text NOT NULL UNIQUE,
  endpoint_sealed  text NOT NULL,
  p256dh           text NOT NULL,
  auth_sealed      text NOT NULL,
  user_agent       text,
  created_at       timestamptz NOT NULL,
  last_pushed_at   timestamptz
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

ALTER TABLE group_alert_notice_settings DROP CONSTRAINT group_alert_notice_settings_channel_check;
ALTER TABLE group_alert_notice_settings ADD CONSTRAINT group_alert_notice_settings_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','PUSH'));
-- A PUSH recipient is a staff member (their subscriptions), never a bare number.
ALTER TABLE group_alert_notice_settings ADD CONSTRAINT group_alert_notice_settings_push_user_check
  CHECK (channel <> 'PUSH' OR user_id IS NOT NULL OR on_call);
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','EMAIL','PUSH'));
ALTER TABLE notice_buckets DROP CONSTRAINT notice_buckets_channel_check;
ALTER TABLE notice_buckets ADD CONSTRAINT notice_buckets_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','PUSH'));
