import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_KINDS } from '@wearable/domain';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { inputClass } from '../../../components/ui/form-parts';
import { type AuditFilter, useAudit } from '../api/audit-api';

const PAGE_SIZE = 50;
/** Before/after as short text: the changed fields only (the server records just those). */
const show = (value: unknown) =>
  value === null || value === undefined ? '' : JSON.stringify(value);

/** The audit log on /settings (organisation owners: their organisation; platform staff: all). */
export function AuditLog() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<AuditFilter>({
    kind: '',
    actorId: '',
    from: '',
    to: '',
    page: 1,
  });
  const audit = useAudit(filter);
  const set = (patch: Partial<AuditFilter>) => setFilter({ ...filter, page: 1, ...patch });
  const rows = audit.data?.entries ?? [];
  const pages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / PAGE_SIZE));
  return (
    <section aria-labelledby="audit-heading" className="space-y-4" data-testid="audit-log">
      <h2 id="audit-heading" className="text-lg font-semibold text-slate-900">
        {t('audit.title')}
      </h2>
      <div className="grid gap-3 sm:grid-cols-4">
        <label className="block text-sm font-medium text-slate-700">
          {t('audit.kind')}
          <select
            value={filter.kind}
            onChange={(e) => set({ kind: e.target.value })}
            className={inputClass}
            data-testid="audit-kind"
          >
            <option value="">{t('audit.allKinds')}</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`audit.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('audit.actor')}
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
      <QueryState
        isPending={audit.isPending}
        isError={audit.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('audit.empty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void audit.refetch()}
      >
        <Table data-testid="audit-table" label={t('audit.title')}>
          <caption className="sr-only">{t('audit.title')}</caption>
          <thead>
            <tr>
              <Th>{t('audit.at')}</Th>
              <Th>{t('audit.actor')}</Th>
              <Th>{t('audit.kind')}</Th>
              <Th>{t('audit.before')}</Th>
              <Th>{t('audit.after')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id} data-testid="audit-row">
                <Td>
                  <DateTime at={e.at} />
                </Td>
                <Td className="break-all">{e.actorName ?? e.actorId ?? t('common.none')}</Td>
                <Td>{t(`audit.kinds.${e.kind}`, { defaultValue: e.kind })}</Td>
                <Td className="break-all font-mono text-xs">{show(e.before)}</Td>
                <Td className="break-all font-mono text-xs">{show(e.after)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {pages > 1 && (
          <nav
            className="flex items-center justify-center gap-3 text-sm"
            aria-label={t('audit.pages')}
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
