import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useConfirmAlert } from '../api/alerts-api';

/**
 * /alerts/:alertId/confirm, where a push notification's 確認 lands (issue 38 item 1): the alert is confirmed
 * once, through the normal API with this person's own session (signed out, the guard sends them to sign in and
 * back here; the notification never carries a token), and the page says so. The EMERGENCY escalation ends with it.
 */
export function AlertConfirmPage() {
  const { t } = useTranslation();
  const { alertId = '' } = useParams();
  const confirm = useConfirmAlert();
  const sent = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (sent.current || alertId === '') return;
    sent.current = true;
    mutate({ alertId });
  }, [alertId, mutate]);

  const result = confirm.data?.result;
  return (
    <section data-testid="alert-confirm">
      <PageHeading>{t('push.confirm.title')}</PageHeading>
      {result === 'confirmed' || result === 'already_confirmed' ? (
        <p
          role="status"
          className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900"
          data-testid="alert-confirm-done"
        >
          {t(result === 'confirmed' ? 'push.confirm.confirmed' : 'push.confirm.alreadyConfirmed')}
        </p>
      ) : result === 'not_found' ? (
        <p className="text-sm text-slate-700" data-testid="alert-confirm-not-found">
          {t('push.confirm.notFound')}
        </p>
      ) : confirm.isError ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          <p>{t('push.confirm.failed')}</p>
          <Button variant="outline" className="mt-3" onClick={() => mutate({ alertId })}>
            {t('push.confirm.retry')}
          </Button>
        </div>
      ) : (
        <Spinner label={t('push.confirm.confirming')} data-testid="page-loading" />
      )}
      <AppLink to={paths.alertHistories.build()} className={buttonClasses('outline', 'mt-4')}>
        {t('push.confirm.history')}
      </AppLink>
    </section>
  );
}
