import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { useCan } from '../../../lib/use-can';
import { AuditLog } from './audit-log';

/** /settings: for now the audit log (owners and platform staff); other settings have their own pages. */
export function SettingsPage() {
  const { t } = useTranslation();
  const mayReadAudit = useCan('audit:read');
  return (
    <div className="space-y-4">
      <PageHeading>{t('pages.settings')}</PageHeading>
      {mayReadAudit ? (
        <AuditLog />
      ) : (
        <p className="text-sm text-slate-600">{t('audit.noAccess')}</p>
      )}
    </div>
  );
}
