import type { UserDevice } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { paths } from '../../../config/paths';
import { useAppPath } from '../../../lib/app-path';
import { useCurrentUser, useSession } from '../../../lib/current-user';
import { session } from '../../../lib/session';

/** A PERSONAL user picks which linked wearer the record pages show. */
export function SelectDevicePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { selectedDevice } = useSession();
  const navigate = useNavigate();
  const appPath = useAppPath();
  const devices = user?.devices ?? [];

  function choose(device: UserDevice) {
    session.selectDevice(device);
    void navigate(appPath(paths.user.record.build()));
  }

  return (
    <section>
      <PageHeading>{t('pages.selectDevice')}</PageHeading>
      {devices.length === 0 ? (
        <p
          data-testid="page-empty"
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500"
        >
          {t('selectDevice.empty')}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label={t('selectDevice.listLabel')}>
          {devices.map((device) => (
            <li key={`${device.uid}-${device.deviceId}`}>
              <button
                type="button"
                data-testid="device-option"
                aria-pressed={selectedDevice?.deviceId === device.deviceId}
                onClick={() => choose(device)}
                className={`w-full rounded-lg border border-slate-200 bg-white p-4 text-left hover:border-teal-600 ${focusRing}`}
              >
                <span className="block font-medium text-slate-900">{device.name}</span>
                <span className="block text-sm text-slate-500">{device.deviceName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
