import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import { PersonalAlertSettings } from '../../features/alert-settings';
import { PersonalWearerPage } from './personal-wearer-page';

/** /user/settings/alert: the personal user's wearer's alert settings (a family member may adjust them). */
export function PersonalAlertSettingsPage() {
  const { t, ready } = useTranslation(['records', 'common', 'alerts']);
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <PersonalWearerPage
      className="max-w-3xl"
      title={t('common:pages.userAlertSetting')}
      wearerLine={(wearer) => t('settingsWearerLine', { name: wearer.name })}
    >
      {(wearer) => (
        <PersonalAlertSettings uid={wearer.uid} typeLabel={(type) => t(`alerts:types.${type}`)} />
      )}
    </PersonalWearerPage>
  );
}
