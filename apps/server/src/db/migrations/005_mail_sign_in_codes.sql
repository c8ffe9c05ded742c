-- Mail joins the notification log; email-link and phone-code sign-in; the recipient's language.

-- The log now also holds messages outside alert escalation (mails, sign-in codes): no alert, and
-- platform staff have no organisation. step is 0 for those.
ALTER TABLE notifications ALTER COLUMN alert_id DROP NOT NULL;
ALTER TABLE notifications ALTER COLUMN organization_id DROP NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check
  CHECK (channel IN ('PHONE_CALL','SMS','EMAIL'));
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC) WHERE alert_id IS NULL;

-- Mails are written in this language.
ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT 'ja' CHECK (locale IN ('ja','en'));
-- Phone sign-in only reaches a number its owner proved (by an SMS code); one account per proved number.
ALTER TABLE users ADD COLUMN phone_verified boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX users_verified_phone_idx ON users (phone_number)
  WHERE phone_verified AND deleted_at IS NULL;

-- Single-use sign-in secrets, stored hashed: an email link (15 minutes) or an SMS code (5 minutes,
-- a few attempts). sent_to is the address or number it went to; a change of either voids it.
CREATE TABLE sign_in_codes (
  id          text PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('EMAIL_LINK','PHONE_CODE')),
  user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sent_to     text NOT NULL,
  code_hash   text NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX sign_in_codes_hash_idx ON sign_in_codes (code_hash);
CREATE INDEX sign_in_codes_user_idx ON sign_in_codes (user_id, kind, created_at DESC);
