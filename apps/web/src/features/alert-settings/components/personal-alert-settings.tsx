import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { useWearerAlertSettings } from '../api/alert-settings-api';
import { AlertSettingsForm } from './alert-settings-form';
import type { ALL_ALERT_TYPES } from '../settings-form';

/** Loads the wearer's settings, then the form (keyed by the wearer, so a switch starts fresh; a newer stored version resets the fields in place). */
export function PersonalAlertSettings({
  uid,
  typeLabel,
}: {
  uid: string;
  typeLabel: (type: (typeof ALL_ALERT_TYPES)[number]) => string;
}) {
  const { t } = useTranslation(['records', 'common']);
  const settings = useWearerAlertSettings(uid);
  return (
    <QueryState
      isPending={settings.isPending}
      isError={settings.isError}
      isEmpty={settings.data === null}
      labels={{
        loading: t('common:common.loading'),
        error: t('common:common.loadFailed'),
        empty: t('settings.notFound'),
        retry: t('common:common.retry'),
      }}
      onRetry={() => void settings.refetch()}
    >
      {settings.data && (
        <AlertSettingsForm key={settings.data.uid} wearer={settings.data} typeLabel={typeLabel} />
      )}
    </QueryState>
  );
}
