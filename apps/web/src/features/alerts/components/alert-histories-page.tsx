import type { AlertView } from '@wearable/domain';
import { Download } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { useIsDemo } from '../../../lib/app-path';
import { useCurrentUser } from '../../../lib/current-user';
import { useCan } from '../../../lib/use-can';
import {
  DEFAULT_ALERT_FILTERS,
  filtersToQuery,
  UNCONFIRMED_PARAM,
  type AlertFilterState,
} from '../api/alert-filters';
import { ALERT_PAGE_SIZE, useAlertList } from '../api/alerts-api';
import { downloadAlertsCsv } from '../api/alerts-csv';
import { AlertFiltersBar } from './alert-filters-bar';
import { AlertTable } from './alert-table';
import { AlertTimelineDialog } from './alert-timeline-dialog';
import { Pager } from './pager';
import { ResponseTimesPanel } from './response-times-panel';
import { SnoozeDialog } from './snooze-dialog';
import { useConfirmAlerts } from './use-confirm-alerts';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';

/**
 * /alert-histories: every alert the reader may see, filtered, paged, confirmable and downloadable.
 * With `uid` (a wearer's /alert_histories page) only that wearer's alerts, under the heading the page gives.
 */
export function AlertHistoriesPage({
  uid,
  heading,
}: { uid?: string; heading?: (actions: ReactNode) => ReactNode } = {}) {
  const { t, i18n, ready } = useTranslation(['alerts', 'common']);
  const demo = useIsDemo();
  // ?unconfirmed (the banner's link): the page opens on the unconfirmed list.
  const [search] = useSearchParams();
  const [filters, setFilters] = useState<AlertFilterState>(() => {
    const start = search.has(UNCONFIRMED_PARAM)
      ? { ...DEFAULT_ALERT_FILTERS, notConfirmed: true }
      : DEFAULT_ALERT_FILTERS;
    return uid === undefined ? start : { ...start, uid };
  });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [downloading, setDownloading] = useState(false);
  const list = useAlertList(filters, page);
  const confirmFlow = useConfirmAlerts(() => setSelected(new Set()));
  const canConfirm = useCan('alert:confirm');
  const canSeeFigures = useCan('alertFigures:read');
  const organizationId = useCurrentUser()?.mediromOrganizationId ?? null;
  const canReadTimeline = useCan('notification:read');
  const [timelineOf, setTimelineOf] = useState<AlertView | null>(null);
  // Snooze and handover are not in the demo (its API has neither).
  const canSnooze = useCan('alert:snooze') && !demo;
  const canHandover = useCan('alert:handover') && !demo;
  const [snoozeOf, setSnoozeOf] = useState<AlertView | null>(null);

  if (!ready) return <Spinner label={t('common:common.loading')} />;

  const changeFilters = (next: AlertFilterState) => {
    setFilters(uid === undefined ? next : { ...next, uid });
    setPage(1);
    setSelected(new Set());
  };
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = (ids: string[]) =>
    setSelected((prev) => (ids.every((id) => prev.has(id)) ? new Set() : new Set(ids)));

  const confirmOne = (alert: AlertView) => confirmFlow.ask([alert.id], alert);
  const confirmSelected = () => confirmFlow.ask([...selected]);
  const download = async () => {
    setDownloading(true);
    const lng = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';
    const result = await downloadAlertsCsv({ ...filtersToQuery(filters, Date.now()), lng }, demo);
    setDownloading(false);
    if (!result.ok) toast.error(t('alerts:csvFailed'));
  };

  const actions = (
    <div className="flex flex-wrap items-center gap-2">
      {uid === undefined && canHandover && (
        <AppLink
          to={paths.alertHandover.build()}
          className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-teal-800 underline-offset-2 hover:underline"
          data-testid="alert-handover-link"
        >
          {t('alerts:handover.link')}
        </AppLink>
      )}
      {canConfirm && (
        <Button
          variant="primary"
          data-testid="alert-batch-confirm"
          disabled={selected.size === 0 || confirmFlow.pendingIds.size > 0}
          onClick={confirmSelected}
        >
          {t('alerts:actions.confirmSelected', { count: selected.size })}
        </Button>
      )}
      <Button
        variant="outline"
        data-testid="alert-csv"
        disabled={downloading}
        onClick={() => void download()}
      >
        <Download aria-hidden="true" className="size-4" />
        {t('alerts:actions.csv')}
      </Button>
    </div>
  );

  const data = list.data;
  return (
    <section>
      {heading ? (
        heading(actions)
      ) : (
        <PageHeading actions={actions}>{t('common:pages.alertHistories')}</PageHeading>
      )}
      <AlertFiltersBar value={filters} onChange={changeFilters} />
      <QueryState
        isPending={list.isPending}
        isError={list.isError}
        isEmpty={(data?.alerts.length ?? 0) === 0}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: t('alerts:empty'),
          retry: t('common:common.retry'),
        }}
        onRetry={() => void list.refetch()}
      >
        <AlertTable
          alerts={data?.alerts ?? []}
          selection={canConfirm ? { selected, toggle, toggleAll } : null}
          onConfirm={canConfirm ? confirmOne : null}
          confirmingIds={confirmFlow.pendingIds}
          onTimeline={canReadTimeline ? setTimelineOf : undefined}
          onSnooze={canSnooze ? setSnoozeOf : undefined}
        />
      </QueryState>
      {confirmFlow.dialog}
      <AlertTimelineDialog alert={timelineOf} onClose={() => setTimelineOf(null)} />
      <SnoozeDialog alert={snoozeOf} onClose={() => setSnoozeOf(null)} />
      {data !== undefined && data.total > 0 && (
        <Pager
          page={page}
          pageSize={ALERT_PAGE_SIZE}
          total={data.total}
          onPage={(p) => {
            setPage(p);
            setSelected(new Set());
          }}
        />
      )}
      {/* The figures after the alerts: staff come here to act first (issue 36). */}
      {uid === undefined && canSeeFigures && organizationId !== null && (
        <div className="mt-8">
          <ResponseTimesPanel clientId={organizationId} />
        </div>
      )}
    </section>
  );
}
