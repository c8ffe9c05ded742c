import type { AlertView, SnoozeView } from '@wearable/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, focusRing } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { PageHeading } from '../../../components/ui/page-heading';
import { PersonName } from '../../../components/ui/person-name';
import { QueryState } from '../../../components/ui/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { HANDOVER_WINDOWS, useEndSnooze, useHandover, type HandoverWindow } from '../api/snoozes';
import { AlertBadge } from './alert-badge';
import { AlertTable } from './alert-table';
import { alertSubject, alertTypeLabel, placeLabel } from './alert-text';
import { AlertTimelineDialog } from './alert-timeline-dialog';
import { SnoozeDialog } from './snooze-dialog';
import { useConfirmAlerts } from './use-confirm-alerts';

type T = (key: string, opts?: Record<string, unknown>) => string;
const selectClass = `min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ${focusRing}`;

/** "Showing 200 of 340" when a list was cut at the server's limit. */
function Count({ shown, total, t }: { shown: number; total: number; t: T }) {
  return (
    <span className="text-sm font-normal text-slate-600">
      {shown < total
        ? t('handover.countOf', { shown, total })
        : t('handover.count', { count: total })}
    </span>
  );
}

const snoozeState = (s: SnoozeView): 'active' | 'ended' | 'expired' =>
  s.active ? 'active' : s.endedAt !== null ? 'ended' : 'expired';

function SnoozeItem({ snooze, canEnd, t }: { snooze: SnoozeView; canEnd: boolean; t: T }) {
  const end = useEndSnooze();
  const state = snoozeState(snooze);
  const type = t(`types.${snooze.alertType}`);
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="handover-snooze"
      data-state={state}
      data-type={snooze.alertType}
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <PersonName name={snooze.wearer.name} className="font-semibold text-slate-900" />
        <span className="font-medium text-slate-900">{type}</span>
        <AlertBadge level={snooze.level} />
        <span className="text-sm text-slate-700" data-testid="handover-snooze-state">
          {t(`handover.snoozeState.${state}`)}
        </span>
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">
          {t(state === 'ended' ? 'handover.endedAt' : 'handover.until')}
        </dt>
        <dd className="text-slate-900">
          <DateTime at={snooze.endedAt ?? snooze.until} />
        </dd>
        <dt className="text-slate-600">{t('handover.reason')}</dt>
        <dd className="break-words text-slate-900" data-testid="handover-snooze-reason">
          {snooze.reason}
        </dd>
        <dt className="text-slate-600">{t('handover.by')}</dt>
        <dd className="text-slate-900">
          {snooze.createdBy?.name ?? '—'} (<DateTime at={snooze.createdAt} />)
        </dd>
        {snooze.endedBy !== null && (
          <>
            <dt className="text-slate-600">{t('handover.endedBy')}</dt>
            <dd className="text-slate-900">{snooze.endedBy.name}</dd>
          </>
        )}
        {snooze.groupName !== null && (
          <>
            <dt className="text-slate-600">{t('table.group')}</dt>
            <dd className="text-slate-900">{snooze.groupName}</dd>
          </>
        )}
      </dl>
      {canEnd && state === 'active' && (
        <Button
          variant="outline"
          className="mt-3 min-h-11"
          data-testid="handover-snooze-end"
          disabled={end.isPending}
          aria-label={t('handover.endSnoozeOf', { type, name: snooze.wearer.name })}
          onClick={() =>
            end.mutate(snooze.id, {
              onSuccess: () =>
                toast.success(t('handover.ended', { type, name: snooze.wearer.name }), {
                  id: 'snooze-end',
                }),
              onError: (err) =>
                toast.error(
                  err instanceof Error && err.message !== ''
                    ? err.message
                    : t('handover.endFailed'),
                  { id: 'snooze-end' },
                ),
            })
          }
        >
          {t('handover.endSnooze')}
        </Button>
      )}
    </li>
  );
}

function ConfirmedItem({ alert, t }: { alert: AlertView; t: T }) {
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="handover-confirmed"
      data-alert-id={alert.id}
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <PersonName name={alertSubject(t, alert)} className="font-semibold text-slate-900" />
        <span className="font-medium text-slate-900">{alertTypeLabel(t, alert)}</span>
        <AlertBadge level={alert.level} />
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('handover.raisedAt')}</dt>
        <dd className="text-slate-900">
          <DateTime at={alert.openedAt} />
        </dd>
        {alert.place !== null && (
          <>
            <dt className="text-slate-600">{t('handover.place')}</dt>
            <dd className="text-slate-900" data-testid="alert-place">
              {placeLabel(t, alert.place)}
            </dd>
          </>
        )}
        <dt className="text-slate-600">{t('handover.confirmedAt')}</dt>
        <dd className="text-slate-900">
          {alert.confirmedAt !== null && <DateTime at={alert.confirmedAt} />}{' '}
          {alert.confirmedBy !== null && `· ${alert.confirmedBy.name}`}
        </dd>
        {alert.confirmReason !== null && (
          <>
            <dt className="text-slate-600">{t('handover.reason')}</dt>
            <dd className="text-slate-900">{t(`reasons.${alert.confirmReason}`)}</dd>
          </>
        )}
        {alert.confirmNote !== null && (
          <>
            <dt className="text-slate-600">{t('handover.note')}</dt>
            <dd className="break-words text-slate-900">{alert.confirmNote}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

/**
 * /alert-histories/handover: what the next shift must know. Alerts open now, snoozes active now or set
 * or ended during the window (who, why, until; staff who may snooze can end one), and alerts confirmed
 * during the window (who, reason, note). The window is the last 8, 12 or 24 hours.
 */
export function HandoverPage() {
  const { t: tr, ready } = useTranslation(['alerts', 'common']);
  const t: T = (key, opts) => tr(`alerts:${key}`, opts);
  const [hours, setHours] = useState<HandoverWindow>(8);
  const handover = useHandover(hours);
  const canConfirm = useCan('alert:confirm');
  const canSnooze = useCan('alert:snooze');
  const canReadTimeline = useCan('notification:read');
  const confirmFlow = useConfirmAlerts();
  const [timelineOf, setTimelineOf] = useState<AlertView | null>(null);
  const [snoozeOf, setSnoozeOf] = useState<AlertView | null>(null);
  const windowId = useId();
  if (!ready) return <Spinner label={tr('common:common.loading')} />;

  const data = handover.data;
  // An open alert whose type is snoozed for its wearer now: said under its status, with until when.
  const snoozedUntil = new Map(
    (data?.snoozes ?? [])
      .filter((sn) => sn.active)
      .map((sn) => [`${sn.wearer.uid}|${sn.alertType}`, sn.until] as const),
  );
  const statusNote = (alert: AlertView) => {
    const until = alert.wearer ? snoozedUntil.get(`${alert.wearer.uid}|${alert.type}`) : undefined;
    return until === undefined ? null : (
      <span className="mt-1 block text-sm font-medium text-amber-900" data-testid="alert-snoozed">
        {t('handover.snoozedUntil')} <DateTime at={until} />
      </span>
    );
  };
  const labels = (empty: string) => ({
    loading: tr('common:common.loading'),
    error: tr('common:common.loadFailed'),
    empty,
    retry: tr('common:common.retry'),
  });
  return (
    <section>
      <PageHeading
        actions={
          <AppLink
            to={paths.alertHistories.build()}
            className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-teal-800 hover:underline"
          >
            {tr('alerts:handover.back')}
          </AppLink>
        }
      >
        {tr('common:pages.alertHandover')}
      </PageHeading>
      <div className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1">
        <label htmlFor={windowId} className="text-sm font-medium text-slate-800">
          {tr('alerts:handover.window')}
        </label>
        <select
          id={windowId}
          className={selectClass}
          data-testid="handover-hours"
          value={hours}
          onChange={(e) => setHours(Number(e.target.value) as HandoverWindow)}
        >
          {HANDOVER_WINDOWS.map((h) => (
            <option key={h} value={h}>
              {tr('alerts:handover.hours', { count: h })}
            </option>
          ))}
        </select>
        {data !== undefined && (
          <p className="text-sm text-slate-600" data-testid="handover-range">
            <DateTime at={data.from} /> – <DateTime at={data.to} />
          </p>
        )}
      </div>
      <QueryState
        isPending={handover.isPending}
        isError={handover.isError}
        isEmpty={false}
        labels={labels('')}
        onRetry={() => void handover.refetch()}
      >
        {data !== undefined && (
          <div className="flex flex-col gap-8">
            <section aria-labelledby={`${windowId}-open`} data-testid="handover-open">
              <h2
                id={`${windowId}-open`}
                className="mb-3 flex flex-wrap items-baseline gap-2 text-base font-semibold text-slate-900"
              >
                {tr('alerts:handover.open')}{' '}
                <Count shown={data.open.alerts.length} total={data.open.total} t={t} />
              </h2>
              {data.open.alerts.length === 0 ? (
                <p className="text-sm text-slate-600">{tr('alerts:handover.openEmpty')}</p>
              ) : (
                <AlertTable
                  alerts={data.open.alerts}
                  selection={null}
                  onConfirm={canConfirm ? (a) => confirmFlow.ask([a.id], a) : null}
                  confirmingIds={confirmFlow.pendingIds}
                  onTimeline={canReadTimeline ? setTimelineOf : undefined}
                  onSnooze={canSnooze ? setSnoozeOf : undefined}
                  statusNote={statusNote}
                />
              )}
            </section>
            <section aria-labelledby={`${windowId}-snoozes`} data-testid="handover-snoozes">
              <h2
                id={`${windowId}-snoozes`}
                className="mb-3 flex flex-wrap items-baseline gap-2 text-base font-semibold text-slate-900"
              >
                {tr('alerts:handover.snoozes')}{' '}
                <Count shown={data.snoozes.length} total={data.snoozes.length} t={t} />
              </h2>
              {data.snoozes.length === 0 ? (
                <p className="text-sm text-slate-600">{tr('alerts:handover.snoozesEmpty')}</p>
              ) : (
                <ul className="grid gap-3 lg:grid-cols-2">
                  {data.snoozes.map((s) => (
                    <SnoozeItem key={s.id} snooze={s} canEnd={canSnooze} t={t} />
                  ))}
                </ul>
              )}
            </section>
            <section
              aria-labelledby={`${windowId}-confirmed`}
              data-testid="handover-confirmed-list"
            >
              <h2
                id={`${windowId}-confirmed`}
                className="mb-3 flex flex-wrap items-baseline gap-2 text-base font-semibold text-slate-900"
              >
                {tr('alerts:handover.confirmed')}{' '}
                <Count shown={data.confirmed.alerts.length} total={data.confirmed.total} t={t} />
              </h2>
              {data.confirmed.alerts.length === 0 ? (
                <p className="text-sm text-slate-600">{tr('alerts:handover.confirmedEmpty')}</p>
              ) : (
                <ul className="grid gap-3 lg:grid-cols-2">
                  {data.confirmed.alerts.map((a) => (
                    <ConfirmedItem key={a.id} alert={a} t={t} />
                  ))}
                </ul>
              )}
            </section>
          </div>
        )}
      </QueryState>
      {confirmFlow.dialog}
      <AlertTimelineDialog alert={timelineOf} onClose={() => setTimelineOf(null)} />
      <SnoozeDialog alert={snoozeOf} onClose={() => setSnoozeOf(null)} />
    </section>
  );
}
