import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { useResendWebhookDelivery } from '../api/change-webhooks';
import { useWebhookDeliveries } from '../api/get-webhooks';

/** One endpoint's delivery log: status, attempts, answer and its time, the payload; send again. */
export function WebhookDeliveries({
  webhookId,
  canManage,
}: {
  webhookId: string;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(webhookId, page);
  const resend = useResendWebhookDelivery();
  if (!log.data) return <p className="mt-2 text-sm text-slate-600">{t('webhooks.loading')}</p>;
  const { deliveries, total, pageSize } = log.data;
  if (deliveries.length === 0)
    return <p className="mt-2 text-sm text-slate-600">{t('webhooks.noDeliveries')}</p>;
  return (
    <div className="mt-2">
      <ul className="divide-y divide-slate-100" aria-label={t('webhooks.deliveriesLabel')}>
        {deliveries.map((d) => (
          <li key={d.id} className="py-2 text-sm" data-testid="webhook-delivery">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  <code className="break-all">{d.eventType}</code>{' '}
                  <span
                    className={
                      d.status === 'delivered'
                        ? 'text-teal-800'
                        : d.status === 'failed'
                          ? 'text-red-700'
                          : 'text-amber-800'
                    }
                  >
                    {t(`webhooks.status.${d.status}`)}
                  </span>
                </p>
                <p className="text-slate-600">
                  <DateTime at={d.createdAt} />
                  {' · '}
                  {t('webhooks.attempts', { count: d.attempts })}
                  {d.lastStatusCode !== null &&
                    ` · ${t('webhooks.answer', { code: d.lastStatusCode, ms: d.lastDurationMs ?? 0 })}`}
                </p>
                <p className="text-xs break-all text-slate-600">
                  {t('webhooks.deliveryId')} <code>{d.id}</code>
                </p>
              </div>
              {canManage && (
                <Button
                  type="button"
                  variant="outline"
                  disabled={resend.isPending}
                  aria-label={t('webhooks.resendNamed', { id: d.id })}
                  onClick={() => resend.mutate({ webhookId, deliveryId: d.id })}
                >
                  {t('webhooks.resend')}
                </Button>
              )}
            </div>
            <details className="mt-1">
              <summary className="cursor-pointer text-slate-700">{t('webhooks.details')}</summary>
              {d.attemptLog.length > 0 && (
                <ol className="mt-1 list-inside list-decimal text-slate-700">
                  {d.attemptLog.map((a) => (
                    <li key={a.at}>
                      <DateTime at={a.at} />
                      {' — '}
                      {a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? '')}
                      {` (${a.durationMs} ms)`}
                    </li>
                  ))}
                </ol>
              )}
              <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all text-slate-800">
                {JSON.stringify(d.payload, null, 2)}
              </pre>
            </details>
          </li>
        ))}
      </ul>
      {total > pageSize && (
        <div className="mt-2 flex gap-2">
          <Button
            type="button"
            variant="outline"
            disabled={page === 1}
            onClick={() => setPage((p) => p - 1)}
          >
            {t('webhooks.newer')}
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={page * pageSize >= total}
            onClick={() => setPage((p) => p + 1)}
          >
            {t('webhooks.older')}
          </Button>
        </div>
      )}
    </div>
  );
}
