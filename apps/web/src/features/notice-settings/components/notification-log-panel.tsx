import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { useNotificationLog } from '../api/list-notifications';

const SHOWN = 10;

/** The newest messages of the notification log the caller may see: a test sent here shows up at the top with its outcome. */
export function NotificationLogPanel() {
  const { t } = useTranslation('staff-settings');
  const log = useNotificationLog(SHOWN);
  const headingId = useId();
  const rows = log.data?.notifications ?? [];
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="notification-log"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('notice.log.title')}
        </h2>
        <Button
          variant="outline"
          onClick={() => void log.refetch()}
          data-testid="notification-log-refresh"
        >
          {t('notice.log.refresh')}
        </Button>
      </div>
      <p className="mt-1 text-sm text-slate-600">{t('notice.log.help')}</p>
      {log.isError && <p className="mt-2 text-sm text-red-700">{t('notice.log.failed')}</p>}
      {!log.isPending && !log.isError && rows.length === 0 && (
        <p className="mt-2 text-sm text-slate-600">{t('notice.log.empty')}</p>
      )}
      <ul className="mt-2 divide-y divide-slate-100">
        {rows.map((n) => (
          <li key={n.id} className="py-2 text-sm" data-testid="notification-log-row">
            <p className="flex flex-wrap gap-x-3 text-slate-600">
              <DateTime at={n.at} />
              <span>{t(`notice.logChannel.${n.channel}`)}</span>
              <span className="break-all">{n.recipient ?? '—'}</span>
              <span
                className={n.status === 'failed' ? 'font-medium text-red-700' : 'text-teal-800'}
                data-testid="notification-log-status"
              >
                {t(`notice.status.${n.status}`)}
              </span>
              <span>{n.provider}</span>
            </p>
            <p className="mt-0.5 break-words text-slate-900">{n.text}</p>
            {n.error && <p className="mt-0.5 break-words text-red-700">{n.error}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
