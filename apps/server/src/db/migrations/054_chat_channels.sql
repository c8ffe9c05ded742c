-- Chat channels (issue 38 item 2, docs/decisions/0022-chat-channels.md): Slack, Microsoft Teams and
-- LINE WORKS as an organisation's integrations, named in a group's notice settings as a recipient
-- with no person and no number; console accounts linked to a chat user, so a 確認 pressed in the chat
-- confirms as that person.

-- The channel values of the notice settings, the notification log and the notice buckets ('PUSH': Web
-- Push, migration 053).
ALTER TABLE group_alert_notice_settings DROP CONSTRAINT group_alert_notice_settings_channel_check;
ALTER TABLE group_alert_notice_settings ADD CONSTRAINT group_alert_notice_settings_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','PUSH','SLACK','TEAMS','LINE_WORKS'));
-- A person's channel names exactly one of a staff member, a number or whoever is on call (migration 052);
-- a chat channel names none of them (the organisation's channel is the recipient).
ALTER TABLE group_alert_notice_settings DROP CONSTRAINT group_alert_notice_settings_target_check;
ALTER TABLE group_alert_notice_settings ADD CONSTRAINT group_alert_notice_settings_target_check
  CHECK (
    CASE WHEN channel IN ('SLACK','TEAMS','LINE_WORKS')
      THEN num_nonnulls(user_id, phone_number) = 0 AND NOT on_call
      ELSE num_nonnulls(user_id, phone_number) + CASE WHEN on_call THEN 1 ELSE 0 END = 1
    END
  );
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','EMAIL','PUSH','SLACK','TEAMS','LINE_WORKS'));
ALTER TABLE notice_buckets DROP CONSTRAINT notice_buckets_channel_check;
ALTER TABLE notice_buckets ADD CONSTRAINT notice_buckets_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','PUSH','SLACK','TEAMS','LINE_WORKS'));

-- One integration per organisation and chat service. `settings` holds what is not secret (a Slack
-- channel id, a LINE WORKS bot id); `secrets_sealed` the rest (webhook URLs, tokens, signing
-- secrets, the private key) as one JSON object sealed with the server's secret box (AES-256-GCM,
-- like TOTP keys and webhook secrets). The API never answers a secret, only its last characters.
CREATE TABLE chat_channels (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('SLACK','TEAMS','LINE_WORKS')),
  settings         jsonb NOT NULL,
  secrets_sealed   text NOT NULL,
  -- The last characters of each secret, for the settings page ("…a1b2").
  secret_hints     jsonb NOT NULL,
  updated_at       timestamptz NOT NULL,
  updated_by       text REFERENCES users(id) ON DELETE SET NULL,
  PRIMARY KEY (organization_id, kind)
);

-- A console account linked to its chat user (Slack user id in a team, LINE WORKS user id): one chat
-- user per account and service, one account per chat user and service within the organisation.
CREATE TABLE chat_user_links (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind             text NOT NULL CHECK (kind IN ('SLACK','LINE_WORKS')),
  chat_user_id     text NOT NULL,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (organization_id, kind, chat_user_id),
  UNIQUE (user_id, kind)
);

-- Single-use link codes handed out on the account page, stored hashed (SHA-256), ten minutes.
CREATE TABLE chat_link_codes (
  code_hash        text PRIMARY KEY,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX chat_link_codes_user_idx ON chat_link_codes (user_id);

-- Callbacks already handled (the SHA-256 of the service and the signed body): a replay does nothing.
CREATE TABLE chat_callbacks_seen (
  body_hash  text PRIMARY KEY,
  seen_at    timestamptz NOT NULL
);
