import type { AlertView } from '@wearable/domain';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { useIsDemo } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { DEFAULT_ALERT_FILTERS, filtersToQuery, type AlertFilterState } from '../api/alert-filters';
import { ALERT_PAGE_SIZE, useAlertList } from '../api/alerts-api';
import { downloadAlertsCsv } from '../api/alerts-csv';
import { AlertFiltersBar } from './alert-filters-bar';
import { AlertTable } from './alert-table';
import { Pager } from './pager';
import { useConfirmAlerts } from './use-confirm-alerts';

/** /alert-histories: every alert the reader may see, filtered, paged, confirmable and downloadable. */
export function AlertHistoriesPage() {
  const { t, i18n, ready } = useTranslation(['alerts', 'common']);
  const demo = useIsDemo();
  const [filters, setFilters] = useState<AlertFilterState>(DEFAULT_ALERT_FILTERS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [downloading, setDownloading] = useState(false);
  const list = useAlertList(filters, page);
  const confirmFlow = useConfirmAlerts(() => setSelected(new Set()));
  const canConfirm = useCan('alert:confirm');

  if (!ready) return <Spinner label={t('common:common.loading')} />;

  const changeFilters = (next: AlertFilterState) => {
    setFilters(next);
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

  const confirmOne = (alert: AlertView) => confirmFlow.ask([alert.id]);
  const confirmSelected = () => confirmFlow.ask([...selected]);
  const download = async () => {
    setDownloading(true);
    const lng = i18n.resolvedLanguage === 'en' ? 'en' : 'ja';
    const result = await downloadAlertsCsv({ ...filtersToQuery(filters, Date.now()), lng }, demo);
    setDownloading(false);
    if (!result.ok) toast.error(t('alerts:csvFailed'));
  };

  const actions = (
    <div className="flex flex-wrap gap-2">
      {canConfirm && (
        <Button variant="primary" data-testid="alert-batch-confirm" disabled={selected.size === 0 || confirmFlow.pendingIds.size > 0} onClick={confirmSelected}>
          {t('alerts:actions.confirmSelected', { count: selected.size })}
        </Button>
      )}
      <Button variant="outline" data-testid="alert-csv" disabled={downloading} onClick={() => void download()}>
        <Download aria-hidden="true" className="size-4" />
        {t('alerts:actions.csv')}
      </Button>
    </div>
  );

  const data = list.data;
  return (
    <section>
      <PageHeading actions={actions}>{t('common:pages.alertHistories')}</PageHeading>
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
        />
      </QueryState>
      {confirmFlow.dialog}
      {data !== undefined && data.total > 0 && (
        <Pager page={page} pageSize={ALERT_PAGE_SIZE} total={data.total} onPage={(p) => { setPage(p); setSelected(new Set()); }} />
      )}
    </section>
  );
}
