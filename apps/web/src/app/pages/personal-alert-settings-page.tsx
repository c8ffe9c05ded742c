import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/ui/page-heading';
import { Spinner } from '../../components/ui/spinner';
import { PersonalAlertSettings } from '../../features/personal-alert-settings';
import { AppLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { usePersonalWearer } from '../../lib/personal-wearer';

/** /user/settings/alert: the personal user's wearer's alert settings (a family member may adjust them). */
export function PersonalAlertSettingsPage() {
  const { t, ready } = useTranslation(['records', 'common', 'alerts']);
  const user = useCurrentUser();
  const wearer = usePersonalWearer();
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <section className="max-w-3xl">
      <PageHeading
        actions={
          user?.role === 'PERSONAL' && (
            <AppLink to="/select-device" data-testid="switch-wearer" className="text-sm text-teal-800 hover:underline">
              {t('switchWearer')}
            </AppLink>
          )
        }
      >
        {t('common:pages.userAlertSetting')}
      </PageHeading>
      {wearer === null ? (
        <p data-testid="page-empty" className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
          {t('noWearer')}
        </p>
      ) : (
        <>
          <p data-testid="selected-device" className="-mt-4 mb-4 text-sm text-slate-600">
            {t('settingsWearerLine', { name: wearer.name })}
          </p>
          <PersonalAlertSettings uid={wearer.uid} typeLabel={(type) => t(`alerts:types.${type}`)} />
        </>
      )}
    </section>
  );
}
