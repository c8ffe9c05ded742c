import type { AlertTimelineEvent, AlertView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { Dialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/query-state';
import { useAlertTimeline } from '../api/alert-timeline';
import { alertSubject, placeLabel } from './alert-text';

/** People named per notice; the rest are counted. */
const PEOPLE_SHOWN = 5;

/** Why the notification policy sent, held or did not send a notice, and the alerts it covered. */
function NoticePolicyNote({
  event,
}: {
  event: Extract<AlertTimelineEvent, { kind: 'notification' }>;
}) {
  const { t } = useTranslation('alerts');
  if (event.reason === null) return null;
  const named = event.covers
    .slice(0, PEOPLE_SHOWN)
    .map((c) => t('timeline.coveredAlert', { name: c.wearerName, type: t(`types.${c.type}`) }));
  const more = event.covers.length - named.length;
  return (
    <span className="block text-xs text-slate-700" data-testid="timeline-notice-reason">
      {t(`timeline.reason.${event.reason}`, { count: event.covers.length })}
      {event.covers.length > 1 && (
        <span className="block break-words" data-testid="timeline-notice-covers">
          {t('timeline.covers', {
            count: event.covers.length,
            list: named.join(t('timeline.listSeparator')),
          })}
          {more > 0 && t('timeline.coversMore', { count: more })}
        </span>
      )}
    </span>
  );
}

/** One line of the story, in the reader's language. */
function EventText({ event }: { event: AlertTimelineEvent }) {
  const { t } = useTranslation('alerts');
  switch (event.kind) {
    case 'raised':
      return (
        <>
          {event.snoozeId !== null
            ? t('timeline.raisedSnoozed')
            : event.notified
              ? t('timeline.raised')
              : t('timeline.raisedNotNotified')}
        </>
      );
    case 'notification': {
      const who = event.recipientName ?? event.recipient ?? t('timeline.noNumber');
      return (
        <>
          {t('timeline.notification', {
            channel: t(`timeline.channels.${event.channel}`),
            who,
            step: event.step,
          })}
          <span className="block text-xs text-slate-600" data-testid="timeline-delivery">
            {t(`timeline.status.${event.status}`)}
            {event.deliveredAt !== null && (
              <>
                {' · '}
                <DateTime at={event.deliveredAt} />
              </>
            )}
            {event.failedAt !== null && (
              <>
                {' · '}
                <DateTime at={event.failedAt} />
              </>
            )}
            {event.error !== null && <span className="block break-words">{event.error}</span>}
          </span>
          <NoticePolicyNote event={event} />
        </>
      );
    }
    case 'escalation':
      return (
        <>
          {event.callsInstead
            ? t('timeline.escalationCalls')
            : t('timeline.escalation', { step: event.step })}
        </>
      );
    case 'escalationEnded':
      return <>{t(`timeline.escalationEnded.${event.reason}`)}</>;
    case 'confirmed':
      return (
        <>
          {t('timeline.confirmed', { name: event.by?.name ?? '' })}
          {event.reason !== null && (
            <span className="block text-xs text-slate-600" data-testid="timeline-confirm-reason">
              {t(`reasons.${event.reason}`)}
            </span>
          )}
          {event.note !== null && (
            <span
              className="block text-xs break-words text-slate-600"
              data-testid="timeline-confirm-note"
            >
              {event.note}
            </span>
          )}
        </>
      );
    case 'closed':
      return (
        <>
          {event.reason === 'confirmed' ? t('timeline.closedByConfirmation') : t('timeline.closed')}
        </>
      );
  }
}

/** The alert's story (GET /v2/alert/{id}/timeline) in a dialog, oldest first. */
export function AlertTimelineDialog({
  alert,
  onClose,
}: {
  alert: AlertView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['alerts', 'common']);
  const timeline = useAlertTimeline(alert?.id ?? null);
  return (
    <Dialog
      open={alert !== null}
      onOpenChange={(open) => !open && onClose()}
      title={
        alert
          ? t('alerts:timeline.title', {
              type: t(`alerts:types.${alert.type}`),
              name: alertSubject(t, alert),
            })
          : ''
      }
      data-testid="alert-timeline"
    >
      {alert !== null && alert.place !== null && (
        <p className="mb-3 text-sm font-medium text-slate-900" data-testid="alert-place">
          {placeLabel((key, opts) => t(`alerts:${key}`, opts), alert.place)}
        </p>
      )}
      <QueryState
        isPending={timeline.isPending}
        isError={timeline.isError}
        isEmpty={false}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: '',
          retry: t('common:common.retry'),
        }}
        onRetry={() => void timeline.refetch()}
      >
        <ol className="flex flex-col gap-3 border-l-2 border-slate-200 pl-4">
          {(timeline.data?.events ?? []).map((event, i) => (
            <li
              key={i}
              data-testid="timeline-event"
              data-kind={event.kind}
              className="text-sm text-slate-900"
            >
              <span className="block text-xs text-slate-600">
                <DateTime at={event.at} />
              </span>
              <EventText event={event} />
            </li>
          ))}
        </ol>
      </QueryState>
      <div className="mt-4 flex justify-end">
        <Button variant="outline" className="min-h-11" onClick={onClose}>
          {t('alerts:timeline.close')}
        </Button>
      </div>
    </Dialog>
  );
}
