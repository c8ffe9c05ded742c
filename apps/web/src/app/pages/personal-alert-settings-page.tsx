import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import { PersonalAlertSettings } from '../../features/alert-settings';
import { FamilyNoticeSettings } from '../../features/family-notices';
import { useCurrentUser } from '../../lib/current-user';
import { PersonalWearerPage } from './personal-wearer-page';

/** /user/settings/alert: the personal user's wearer's alert settings (a family member may adjust them). */
export function PersonalAlertSettingsPage() {
  const { t, ready } = useTranslation(['records', 'common', 'alerts']);
  const user = useCurrentUser();
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <PersonalWearerPage
      className="max-w-3xl"
      title={t('common:pages.userAlertSetting')}
      wearerLine={(wearer) => t('settingsWearerLine', { name: wearer.name })}
    >
      {(wearer) => (
        <>
          {/* A family member chooses how they are told of this wearer's emergencies (issue 34). */}
          {user?.role === 'PERSONAL' && (
            <FamilyNoticeSettings uid={wearer.uid} name={wearer.name} />
          )}
          <PersonalAlertSettings uid={wearer.uid} typeLabel={(type) => t(`alerts:types.${type}`)} />
        </>
      )}
    </PersonalWearerPage>
  );
}
