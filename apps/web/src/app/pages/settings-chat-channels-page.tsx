import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { OrganizationScope } from '../../components/organization-scope';
import { ChatChannelsPanel } from '../../features/chat-channels/components/chat-channels-panel';

/**
 * /settings/chat-channels: the organisation's Slack, Microsoft Teams and LINE WORKS channels, which a
 * group's notice settings name as recipients. Owners set them up; other staff see which exist.
 */
export function SettingsChatChannelsPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.settingsChatChannels')}</PageHeading>
      <OrganizationScope testId="chat-channels-organization">
        {(clientId) => <ChatChannelsPanel organizationId={clientId} />}
      </OrganizationScope>
    </section>
  );
}
