-- /user/info (issue 6): one's own sessions, a new phone number proved by an SMS code, a new address by a link.

-- The client that signed in or refreshed with this token (shown in the list of one's own sessions).
ALTER TABLE refresh_tokens ADD COLUMN user_agent text;
CREATE INDEX refresh_tokens_user_live_idx ON refresh_tokens (user_id, expires_at) WHERE revoked_at IS NULL;

-- PHONE_VERIFY: a code to a number the person wants to add (sent_to); EMAIL_CHANGE: a link to a new address.
ALTER TABLE sign_in_codes DROP CONSTRAINT sign_in_codes_kind_check;
ALTER TABLE sign_in_codes ADD CONSTRAINT sign_in_codes_kind_check
  CHECK (kind IN ('EMAIL_LINK','PHONE_CODE','PHONE_VERIFY','EMAIL_CHANGE'));
