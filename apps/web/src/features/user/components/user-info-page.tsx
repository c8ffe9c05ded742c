import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';
import { ThemeSwitch } from '../../../components/ui/theme-switch';
import { useCurrentUser } from '../../../lib/current-user';

/** Registration info: what GET /v2/user says about the signed-in person. */
export function UserInfoPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (user === null) return null;
  const rows: [string, string][] = [
    [t('userInfo.name'), user.name],
    [t('userInfo.mail'), user.mail ?? t('common.none')],
    [t('userInfo.mailVerified'), user.mailVerified ? t('common.yes') : t('common.no')],
    [t('userInfo.role'), t(`roles.${user.role}`)],
    [t('userInfo.uid'), user.uid],
    [t('userInfo.gatewayId'), user.gatewayId ?? t('common.none')],
    [
      t('userInfo.devices'),
      user.devices.map((device) => device.name).join(', ') || t('common.none'),
    ],
  ];
  return (
    <section>
      <PageHeading>{t('pages.userInfo')}</PageHeading>
      <dl
        data-testid="user-info"
        className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
      >
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-1 px-4 py-3 sm:grid-cols-3">
            <dt className="text-sm font-medium text-slate-500">{label}</dt>
            <dd className="text-sm break-all text-slate-900 sm:col-span-2">{value}</dd>
          </div>
        ))}
      </dl>
      <ThemeSwitch className="mt-4" />
    </section>
  );
}
