import { ALERT_LINK_CODE_PATTERN, getAlertLink } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { AppLink, useAppPath } from '../../../lib/app-path';
import { endpointQuery } from '../../../lib/endpoint';

/**
 * /a/:code, the short link of an alert SMS (issue 36 item 4). Signed out, the guard sends the person
 * to sign in and back here; signed in, the server says which alert the code names (only to someone
 * who may see it) and the page goes on to the wearer's alerts (a device no wearer holds: the alert
 * history). An unknown code, or an alert this person may not see, is the same "not found".
 */
export function AlertLinkPage() {
  const { t } = useTranslation('alerts');
  const { code = '' } = useParams();
  const appPath = useAppPath();
  const wellFormed = ALERT_LINK_CODE_PATTERN.test(code);
  const link = useQuery({
    ...endpointQuery(getAlertLink, { params: { code } }),
    enabled: wellFormed,
    retry: false,
  });
  if (link.data) {
    const { clientId, uid } = link.data;
    const to =
      uid === null
        ? paths.alertHistories.build()
        : paths.device.alertHistories.build({ clientId, uid });
    return <Navigate replace to={appPath(to)} />;
  }
  const refused =
    !wellFormed ||
    (link.error instanceof ApiError && (link.error.status === 404 || link.error.status === 403));
  return (
    <section data-testid="alert-link">
      <PageHeading>{t('link.title')}</PageHeading>
      {refused ? (
        <div data-testid="alert-link-not-found">
          <p className="text-sm text-slate-700">{t('link.notFound')}</p>
          <AppLink to={paths.alertHistories.build()} className={buttonClasses('primary', 'mt-4')}>
            {t('link.history')}
          </AppLink>
        </div>
      ) : link.isError ? (
        <div
          role="alert"
          data-testid="page-error"
          className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          <p>{t('link.error')}</p>
          <Button variant="outline" className="mt-3" onClick={() => void link.refetch()}>
            {t('link.retry')}
          </Button>
        </div>
      ) : (
        <Spinner label={t('link.loading')} data-testid="page-loading" />
      )}
    </section>
  );
}
