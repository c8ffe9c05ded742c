import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';
import { AlertHistoriesPage } from '../../features/alerts';
import { DeviceSettingPanel } from '../../features/bracelets';
import { PersonalAlertSettings } from '../../features/alert-settings';
import { ProfilePanel, WatchersPanel } from '../../features/wearer-profile';
import { WearerSubpage } from './wearer-subpage';

/** /devices/{clientId}/{uid}/alert: staff edit the wearer's alert settings with the form personal users have. */
export function WearerAlertSettingsPage() {
  const { t } = useTranslation(['alerts']);
  return (
    <WearerSubpage titleKey={paths.device.alert.titleKey} namespaces={['records', 'alerts']}>
      {(wearer) => (
        <PersonalAlertSettings uid={wearer.uid} typeLabel={(type) => t(`alerts:types.${type}`)} />
      )}
    </WearerSubpage>
  );
}

/** /devices/{clientId}/{uid}/alert_histories: the alert history page (filters, confirm, CSV) for one wearer. */
export function WearerAlertHistoriesPage() {
  return (
    <WearerSubpage titleKey={paths.device.alertHistories.titleKey} namespaces={['alerts']}>
      {(wearer) => (
        <AlertHistoriesPage
          uid={wearer.uid}
          heading={(actions) => (
            <div className="mb-4 flex flex-wrap justify-end gap-2">{actions}</div>
          )}
        />
      )}
    </WearerSubpage>
  );
}

/** /devices/{clientId}/{uid}/config: name, birth date (maximum heart rate), group. */
export function WearerConfigPage() {
  return (
    <WearerSubpage titleKey={paths.device.config.titleKey}>
      {(wearer) => (
        <ProfilePanel
          key={`${wearer.uid}-${wearer.name}-${wearer.birthDate ?? ''}-${wearer.groupId ?? ''}`}
          person={wearer}
        />
      )}
    </WearerSubpage>
  );
}

/** /devices/{clientId}/{uid}/member: who watches this wearer, and an invitation for a family member. */
export function WearerMemberPage() {
  return (
    <WearerSubpage titleKey={paths.device.member.titleKey}>
      {(wearer) => <WatchersPanel person={wearer} />}
    </WearerSubpage>
  );
}

/** /devices/{clientId}/{uid}/device_setting: the bracelet, its duty cycle, pairing, unlink and replace. */
export function WearerDeviceSettingPage() {
  return (
    <WearerSubpage titleKey={paths.device.setting.titleKey}>
      {(wearer, ids) => (
        <DeviceSettingPanel
          wearer={{
            uid: wearer.uid,
            clientId: ids.clientId,
            name: wearer.name,
            groupName: wearer.groupName,
          }}
        />
      )}
    </WearerSubpage>
  );
}
