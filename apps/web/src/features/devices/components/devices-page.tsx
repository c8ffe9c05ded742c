import { WEARER_SORTS, type WearerSort } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { PageHeading } from '../../../components/ui/page-heading';
import { QueryState } from '../../../components/ui/query-state';
import { Table, Td, Th } from '../../../components/ui/table';
import { AppLink } from '../../../lib/app-path';
import { sortWearers, useWearers } from '../api/wearers-api';

/** The user list: every wearer the caller may see, with group, bracelet and battery. */
export function DevicesPage() {
  const { t, i18n } = useTranslation();
  const [sort, setSort] = useState<WearerSort>('name_asc');
  const wearers = useWearers(sort);
  const rows = sortWearers(wearers.data ?? [], sort, i18n.resolvedLanguage ?? 'ja');
  const none = t('common.none');

  const sortSelect = (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      {t('devices.sortLabel')}
      <select
        data-testid="sort-select"
        value={sort}
        onChange={(event) => setSort(event.target.value as WearerSort)}
        className={`rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm ${focusRing}`}
      >
        {WEARER_SORTS.map((option) => (
          <option key={option} value={option}>
            {t(`devices.sort.${option}`)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section>
      <PageHeading actions={sortSelect}>{t('pages.devices')}</PageHeading>
      <QueryState
        isPending={wearers.isPending}
        isError={wearers.isError}
        isEmpty={rows.length === 0}
        labels={{ loading: t('common.loading'), error: t('common.loadFailed'), empty: t('devices.empty'), retry: t('common.retry') }}
        onRetry={() => void wearers.refetch()}
      >
        <Table data-testid="wearer-table">
          <caption className="sr-only">{t('pages.devices')}</caption>
          <thead>
            <tr>
              <Th>{t('devices.columns.name')}</Th>
              <Th>{t('devices.columns.group')}</Th>
              <Th>{t('devices.columns.bracelet')}</Th>
              <Th>{t('devices.columns.battery')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((wearer) => (
              <tr key={wearer.uid} data-testid="wearer-row">
                <Td>
                  <AppLink to={`/devices/${encodeURIComponent(wearer.clientId)}/${encodeURIComponent(wearer.uid)}`} className={`font-medium text-teal-800 hover:underline ${focusRing}`}>
                    {wearer.name}
                  </AppLink>
                </Td>
                <Td>{wearer.groupName ?? none}</Td>
                <Td>{wearer.deviceName ?? wearer.serialNumber ?? none}</Td>
                <Td>{wearer.battery === null ? none : t('devices.batteryValue', { value: wearer.battery })}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </QueryState>
    </section>
  );
}
