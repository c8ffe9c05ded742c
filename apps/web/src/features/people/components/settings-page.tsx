import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { useCan } from '../../../lib/use-can';
import { AccessLog } from './access-log';
import { AuditLog } from './audit-log';
import { SignInPolicy } from './sign-in-policy';
import { useCurrentUser } from '../../../lib/current-user';

/**
 * /settings: the audit log (owners and platform staff), the organisation's two-factor sign-in policy and the access
 * log (owners); other settings have their own pages. `sections`: other features' sections, first
 * (composed by app/pages/settings-home-page.tsx: a feature does not import another).
 */
export function SettingsPage({ sections }: { sections?: ReactNode }) {
  const { t } = useTranslation();
  const mayReadAudit = useCan('audit:read');
  const mayReadAccessLog = useCan('accessLog:read');
  const mayChangeSignIn = useCan('organization:update');
  const organizationId = useCurrentUser()?.mediromOrganizationId ?? null;
  return (
    <div className="space-y-4">
      <PageHeading>{t('pages.settings')}</PageHeading>
      {sections}
      {mayReadAudit ? (
        <AuditLog />
      ) : (
        <p className="text-sm text-slate-600">{t('audit.noAccess')}</p>
      )}
      {mayChangeSignIn && organizationId && <SignInPolicy organizationId={organizationId} />}
      {mayReadAccessLog && <AccessLog />}
    </div>
  );
}
