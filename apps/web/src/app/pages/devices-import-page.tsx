import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { paths } from '../../config/paths';
// Straight from the component (not the feature's index): papaparse stays in this page's chunk.
import { BraceletImport } from '../../features/bracelets/components/bracelet-import';
import { WearerImport } from '../../features/people/components/wearer-import';
import { AppLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { useCan } from '../../lib/use-can';

/**
 * /devices/import: bracelets and wearers by CSV, for the signed-in person's organisation. Import
 * the bracelets first, then the wearers (their file may name a bracelet to pair).
 */
export function DevicesImportPage() {
  const { t } = useTranslation();
  const clientId = useCurrentUser()?.mediromOrganizationId ?? null;
  const organization = { organizationId: clientId ?? '' };
  const mayRegister = useCan('bracelet:register', organization);
  const mayManage = useCan('wearer:manage', organization);
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <AppLink
          to={paths.devices.list.build()}
          className={`text-teal-800 hover:underline ${focusRing}`}
        >
          {t('bulk.back')}
        </AppLink>
      </p>
      <PageHeading>{t('pages.devicesImport')}</PageHeading>
      {clientId === null ? (
        <p className="text-sm text-slate-700">{t('bulk.noOrganization')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t('bulk.lead')}</p>
          {mayRegister && <BraceletImport clientId={clientId} />}
          {mayManage && <WearerImport clientId={clientId} />}
        </>
      )}
    </div>
  );
}
