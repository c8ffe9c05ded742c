import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { listAccessLogCsv } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { inputClass } from '../../../components/ui/form-parts';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { useIsDemo } from '../../../lib/app-path';
import { useCurrentUser } from '../../../lib/current-user';
import { downloadFile } from '../../../lib/download-file';
import { type AccessLogFilter, accessLogQueryOf, useAccessLog } from '../api/access-log-api';
import { useWearers } from '../api/people-api';

const PAGE_SIZE = 50;

/**
 * Who read whose data (docs/access-log.md), on /settings for owners and platform owners: filtered by person, staff
 * member and period, with its CSV. Reading it is itself recorded.
 */
export function AccessLog() {
  const { t } = useTranslation();
  const demo = useIsDemo();
  const user = useCurrentUser();
  const wearers = useWearers(user?.mediromOrganizationId ?? null).data ?? [];
  const [filter, setFilter] = useState<AccessLogFilter>({
    personId: '',
    actorId: '',
    from: '',
    to: '',
    page: 1,
  });
  const log = useAccessLog(filter);
  const set = (patch: Partial<AccessLogFilter>) => setFilter({ ...filter, page: 1, ...patch });
  const rows = log.data?.entries ?? [];
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / PAGE_SIZE));
  const download = async () => {
    const result = await downloadFile(
      listAccessLogCsv,
      { query: accessLogQueryOf(filter) },
      demo,
      'access-log.csv',
    );
    if (!result.ok) toast.error(t('accessLog.csvFailed'));
  };
  return (
    <section aria-labelledby="access-log-heading" className="space-y-4" data-testid="access-log">
      <h2 id="access-log-heading" className="text-lg font-semibold text-slate-900">
        {t('accessLog.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('accessLog.lead')}</p>
      <div className="grid gap-3 sm:grid-cols-4">
        <label className="block text-sm font-medium text-slate-700">
          {t('accessLog.person')}
          <select
            value={filter.personId}
            onChange={(e) => set({ personId: e.target.value })}
            className={inputClass}
            data-testid="access-log-person"
          >
            <option value="">{t('accessLog.everyone')}</option>
            {wearers.map((w) => (
              <option key={w.uid} value={w.uid}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('accessLog.actor')}
          <input
            value={filter.actorId}
            onChange={(e) => set({ actorId: e.target.value.trim() })}
            className={inputClass}
            placeholder={t('audit.actorHint')}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('audit.from')}
          <input
            type="date"
            value={filter.from}
            onChange={(e) => set({ from: e.target.value })}
            className={inputClass}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('audit.to')}
          <input
            type="date"
            value={filter.to}
            onChange={(e) => set({ to: e.target.value })}
            className={inputClass}
          />
        </label>
      </div>
      <div>
        <Button variant="outline" onClick={() => void download()} data-testid="access-log-csv">
          {t('accessLog.csv')}
        </Button>
      </div>
      <QueryState
        isPending={log.isPending}
        isError={log.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('accessLog.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void log.refetch()}
      >
        <Table data-testid="access-log-table" label={t('accessLog.title')}>
          <caption className="sr-only">{t('accessLog.title')}</caption>
          <thead>
            <tr>
              <Th>{t('audit.at')}</Th>
              <Th>{t('accessLog.actor')}</Th>
              <Th>{t('accessLog.what')}</Th>
              <Th>{t('accessLog.person')}</Th>
              <Th>{t('accessLog.ip')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={`${e.clientId}-${e.seq}`} data-testid="access-log-row">
                <Td>
                  <DateTime at={e.at} />
                </Td>
                <Td className="break-all">
                  {e.actorName ?? e.actorId ?? t('common.none')}
                  {e.apiTokenId !== null && ` (${t('accessLog.viaToken')})`}
                </Td>
                <Td>{t(`accessLog.whats.${e.what}`, { defaultValue: e.what })}</Td>
                <Td className="break-all">
                  {e.people.map((p) => p.name ?? t('accessLog.erased')).join('、')}
                </Td>
                <Td className="break-all font-mono text-xs">{e.ip ?? ''}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {pages > 1 && (
          <nav
            className="flex items-center justify-center gap-3 text-sm"
            aria-label={t('accessLog.pages')}
          >
            <Button
              variant="outline"
              disabled={filter.page <= 1}
              onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
            >
              {t('admins.previous')}
            </Button>
            <span aria-live="polite">{t('admins.pageOf', { page: filter.page, pages })}</span>
            <Button
              variant="outline"
              disabled={filter.page >= pages}
              onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
            >
              {t('admins.next')}
            </Button>
          </nav>
        )}
      </QueryState>
    </section>
  );
}
