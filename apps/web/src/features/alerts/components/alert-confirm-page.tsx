import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { takeConfirmIntent } from '../../../lib/confirm-intent';
import { useConfirmAlert } from '../api/alerts-api';

/**
 * /alerts/:alertId/confirm, where a push notification's 確認 lands (issue 38 item 1): the alert is confirmed
 * once, through the normal API with this person's own session (signed out, the guard sends them to sign in and
 * back here; the notification never carries a token), and the page says so. The EMERGENCY escalation ends with it.
 * It confirms by itself only when the service worker recorded that 確認 was pressed in the notification
 * (lib/confirm-intent.ts); opened from a link anywhere else, it asks for a press of its own 確認 button.
 */
export function AlertConfirmPage() {
  const { t } = useTranslation();
  const { alertId = '' } = useParams();
  const confirm = useConfirmAlert();
  const sent = useRef(false);
  const [asked, setAsked] = useState(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (sent.current || alertId === '') return;
    sent.current = true;
    // Once per page, whatever the effect's runs: the intent is taken (deleted) by the first read.
    void takeConfirmIntent(alertId).then((pressed) => {
      if (pressed) mutate({ alertId });
      else setAsked(true);
    });
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
      ) : asked && confirm.isIdle ? (
        <div className="grid gap-3" data-testid="alert-confirm-ask">
          <p className="text-sm text-slate-700">{t('push.confirm.ask')}</p>
          <div>
            <Button
              variant="primary"
              onClick={() => mutate({ alertId })}
              data-testid="alert-confirm-button"
            >
              {t('push.confirm.button')}
            </Button>
          </div>
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
