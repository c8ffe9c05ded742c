-- Issue 38 item 1: a family member may be told of a watched wearer's EMERGENCY and CRITICAL alerts by push to
-- the browsers they subscribed (docs/push.md), besides SMS and mail.
ALTER TABLE family_notice_preferences DROP CONSTRAINT family_notice_preferences_channel_check;
ALTER TABLE family_notice_preferences ADD CONSTRAINT family_notice_preferences_channel_check
  CHECK (channel IN ('SMS','EMAIL','PUSH'));
