-- LINE Messaging API for family members (issue 38 item 2, docs/decisions/0024-line-family.md): the
-- organisation's LINE official account on /settings (kind 'LINE' of chat_channels: the channel access
-- token and channel secret sealed), a family member's LINE user linked by a one-time code, LINE as a family
-- notice choice and as a logged channel; the family member's 見ました on a notice is kept on its row.
ALTER TABLE chat_channels DROP CONSTRAINT chat_channels_kind_check;
ALTER TABLE chat_channels ADD CONSTRAINT chat_channels_kind_check
  CHECK (kind IN ('SLACK','TEAMS','LINE_WORKS','LINE'));
ALTER TABLE chat_user_links DROP CONSTRAINT chat_user_links_kind_check;
ALTER TABLE chat_user_links ADD CONSTRAINT chat_user_links_kind_check
  CHECK (kind IN ('SLACK','LINE_WORKS','LINE'));
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','EMAIL','PUSH','SLACK','TEAMS','LINE_WORKS','LINE'));
-- A CRITICAL family notice by LINE goes through the notice policy's buckets like an SMS.
ALTER TABLE notice_buckets DROP CONSTRAINT notice_buckets_channel_check;
ALTER TABLE notice_buckets ADD CONSTRAINT notice_buckets_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','PUSH','SLACK','TEAMS','LINE_WORKS','LINE'));
ALTER TABLE family_notice_preferences DROP CONSTRAINT family_notice_preferences_channel_check;
ALTER TABLE family_notice_preferences ADD CONSTRAINT family_notice_preferences_channel_check
  CHECK (channel IN ('SMS','EMAIL','PUSH','LINE'));
-- When the family member pressed 見ました on this LINE notice (never a confirmation of the alert).
ALTER TABLE notifications ADD COLUMN seen_at timestamptz;
-- The month's LINE messages of an organisation are counted from the log.
CREATE INDEX notifications_line_month_idx ON notifications (organization_id, created_at)
  WHERE channel = 'LINE';
