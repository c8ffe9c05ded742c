import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { NoticeSettingsPanel } from '../../features/notice-settings';
import { AppLink } from '../../lib/app-path';

/** /groups/{groupId}/alert-notice-settings: the group's alert recipients (notice-settings feature), alert type names from the alerts namespace. */
export function NoticeSettingsPage() {
  const { groupId = '' } = useParams();
  const { t, ready } = useTranslation(['staff-settings', 'records', 'alerts', 'common']);
  return (
    <section>
      <PageHeading
        actions={
          <AppLink
            to={paths.groups.list.build()}
            className="text-sm text-teal-800 underline underline-offset-4"
          >
            {t('staff-settings:backToGroups')}
          </AppLink>
        }
      >
        {t('common:pages.groupAlertNoticeSettings')}
      </PageHeading>
      {ready ? (
        <NoticeSettingsPanel
          key={groupId}
          groupId={groupId}
          typeLabel={(type) => t(`alerts:types.${type}`)}
        />
      ) : (
        <Spinner label={t('common:common.loading')} />
      )}
    </section>
  );
}
