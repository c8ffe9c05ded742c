-- Issue 35: "パスワードを忘れた場合": a single-use link mailed to the account's address sets a new password and
-- ends every session of the account.
ALTER TABLE sign_in_codes DROP CONSTRAINT sign_in_codes_kind_check;
ALTER TABLE sign_in_codes ADD CONSTRAINT sign_in_codes_kind_check
  CHECK (kind IN ('EMAIL_LINK','PHONE_CODE','PHONE_VERIFY','EMAIL_CHANGE','PASSWORD_RESET'));
