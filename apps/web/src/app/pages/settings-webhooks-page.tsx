import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { OrganizationScope } from '../../components/organization-scope';
import { WebhooksPanel } from '../../features/webhooks/components/webhooks-panel';

/**
 * /settings/webhooks: the organisation's webhook endpoints and their delivery logs. Organisation
 * owners see their own; platform staff first pick the organisation.
 */
export function SettingsWebhooksPage() {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeading>{t('pages.settingsWebhooks')}</PageHeading>
      <OrganizationScope testId="webhooks-organization">
        {(clientId) => <WebhooksPanel organizationId={clientId} />}
      </OrganizationScope>
    </section>
  );
}
