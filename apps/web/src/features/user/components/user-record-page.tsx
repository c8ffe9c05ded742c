import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { useSession } from '../../../lib/current-user';

/** Personal home; the record charts come with a later issue. */
export function UserRecordPage() {
  const { t } = useTranslation();
  const { selectedDevice } = useSession();
  return (
    <section>
      <PageHeading>{t('pages.userRecord')}</PageHeading>
      {selectedDevice !== null && (
        <p data-testid="selected-device" className="text-sm text-slate-600">
          {t('userRecord.wearer', { name: selectedDevice.name, device: selectedDevice.deviceName })}
        </p>
      )}
    </section>
  );
}
