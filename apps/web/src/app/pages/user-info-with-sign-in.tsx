import { ApiTokensSettings } from '../../features/api-tokens/components/api-tokens-settings';
import { AccountSettings } from '../../features/auth/components/account-settings';
import { ChatLinkSettings } from '../../features/chat-channels/components/chat-link-settings';
import { FamilyLineLink } from '../../features/family-notices';
import { PasskeySettings } from '../../features/auth/components/passkey-settings';
import { TotpSettings } from '../../features/auth/components/totp-settings';
import { OwnDataExport } from '../../features/people/components/own-data-export';
import { PushSettings } from '../../features/push/components/push-settings';
import { UserInfoPage } from '../../features/user/components/user-info-page';

/**
 * /user/info: the registration info (user feature), then one's own name, address, phone, password and sessions
 * the two-step sign-in setting and passkeys (auth feature), Web Push on this browser (push), one's API tokens (staff),
 * one's links to chat users (chat-channels: 確認 from Slack or LINE WORKS), a family member's LINE link (family-notices)
 * and a wearer's own data (people).
 */
export function UserInfoWithSignInPage() {
  return (
    <>
      <UserInfoPage />
      <AccountSettings />
      <TotpSettings />
      <PasskeySettings />
      <PushSettings />
      <ApiTokensSettings />
      <ChatLinkSettings />
      <FamilyLineLink />
      <OwnDataExport />
    </>
  );
}
