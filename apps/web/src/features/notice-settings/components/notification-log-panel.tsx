import type { AlertType, NotificationView } from '@wearable/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { useNotificationLog } from '../api/list-notifications';

const SHOWN = 10;
/** People named per entry; the rest are counted. */
const PEOPLE_SHOWN = 5;

/**
 * Why the notification policy sent, held or did not send an entry (grouped, held, capped, inhibited,
 * the hour's summary), and the alerts it covered: the people and their alert types.
 */
function NoticePolicyNote({
  notice,
  typeLabel,
}: {
  notice: NotificationView;
  typeLabel: (type: AlertType) => string;
}) {
  const { t } = useTranslation('staff-settings');
  if (notice.reason === null) return null;
  const { covers } = notice;
  const named = covers
    .slice(0, PEOPLE_SHOWN)
    .map((c) => t('notice.log.coveredAlert', { name: c.wearerName, type: typeLabel(c.type) }));
  const more = covers.length - named.length;
  return (
    <div className="mt-0.5 text-slate-700" data-testid="notification-log-reason">
      <p className="font-medium">
        {t(`notice.reason.${notice.reason}`, { count: notice.waiting ?? covers.length })}
      </p>
      {covers.length > 0 && (
        <p className="break-words" data-testid="notification-log-covers">
          {t('notice.log.covers', {
            count: covers.length,
            list: named.join(t('notice.log.listSeparator')),
          })}
          {more > 0 && t('notice.log.coversMore', { count: more })}
        </p>
      )}
    </div>
  );
}

/** The newest messages of the notification log the caller may see: a test sent here shows up at the top with its outcome. */
export function NotificationLogPanel({ typeLabel }: { typeLabel: (type: AlertType) => string }) {
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
                className={
                  n.status === 'failed'
                    ? 'font-medium text-red-700'
                    : n.status === 'withheld'
                      ? 'font-medium text-amber-800'
                      : 'text-teal-800'
                }
                data-testid="notification-log-status"
              >
                {t(`notice.status.${n.status}`)}
              </span>
              <span>{n.provider}</span>
            </p>
            <p className="mt-0.5 break-words text-slate-900">{n.text}</p>
            <NoticePolicyNote notice={n} typeLabel={typeLabel} />
            {n.error && <p className="mt-0.5 break-words text-red-700">{n.error}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
