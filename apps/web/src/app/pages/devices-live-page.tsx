import type { WearerSort, WearerSummary } from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { focusRing } from '../../components/ui/button';
import { PageHeading } from '../../components/ui/page-heading';
import { PersonName } from '../../components/ui/person-name';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import { Table, Td, Th } from '../../components/ui/table';
import { paths } from '../../config/paths';
import { AlertBadge } from '../../features/alerts';
import { sortWearers, useWearers, WearerSortSelect } from '../../features/devices';
import {
  BatteryState,
  ConnectionState,
  CoverageStrip,
  LastSeen,
  summaryPollMs,
  useLiveStatus,
  useNow,
  useWearerStateText,
  useWearerSummary,
  WornState,
} from '../../features/live';
import { SiteHeatStrip } from '../../features/site-heat';
import { AppLink } from '../../lib/app-path';
import { useCurrentUser } from '../../lib/current-user';
import { useMediaQuery } from '../../lib/use-media-query';
import { WearerCards } from './wearer-cards';

/** /groups/{groupId}/devices: the same live list, of one group's wearers. */
export function GroupDevicesLivePage() {
  const { groupId = '' } = useParams();
  return <DevicesLivePage groupId={groupId} />;
}

/**
 * /devices: the wearer list (devices feature) with each wearer's live state (live feature) and open alerts.
 * With groupId, only that group's wearers (and the coverage strip counts only them).
 */
export function DevicesLivePage({ groupId }: { groupId?: string } = {}) {
  const { t, i18n, ready } = useTranslation(['common', 'live', 'alerts']);
  const [sort, setSort] = useState<WearerSort>('name_asc');
  const wearers = useWearers(sort, groupId);
  const live = useLiveStatus();
  const summary = useWearerSummary(summaryPollMs(live));
  const text = useWearerStateText();
  const now = useNow();
  const rows = sortWearers(wearers.data ?? [], sort, i18n.resolvedLanguage ?? 'ja');
  const shown = groupId === undefined ? null : new Set(rows.map((w) => w.uid));
  const summaries = (summary.data?.wearers ?? []).filter((w) => shown === null || shown.has(w.uid));
  const states = new Map<string, WearerSummary>(summaries.map((w) => [w.uid, w]));
  const groupName = rows.find((w) => w.groupName !== null)?.groupName ?? null;
  const title =
    groupId === undefined
      ? t('pages.devices')
      : groupName === null
        ? t('pages.groupDevices')
        : t('devices.groupTitle', { group: groupName });
  const none = t('common.none');
  const wide = useMediaQuery('(min-width: 768px)');
  // The sites of the user's organisation, and of every organisation in the list (platform staff).
  const ownClientId = useCurrentUser()?.mediromOrganizationId ?? null;
  const clientIds = [
    ...new Set([...(ownClientId === null ? [] : [ownClientId]), ...rows.map((w) => w.clientId)]),
  ];
  if (!ready) return <Spinner label={t('common.loading')} />;

  const sortSelect = <WearerSortSelect value={sort} onChange={setSort} />;

  return (
    <section>
      {groupId !== undefined && (
        <p className="mb-2 text-sm">
          <AppLink
            to={paths.groups.list.build()}
            className={`text-teal-800 hover:underline ${focusRing}`}
          >
            {t('devices.backToGroups')}
          </AppLink>
        </p>
      )}
      <PageHeading actions={sortSelect}>{title}</PageHeading>
      {summary.data !== undefined && (shown === null || wearers.data !== undefined) && (
        <CoverageStrip wearers={summaries} live={live} />
      )}
      <SiteHeatStrip clientIds={clientIds} groupId={groupId} />
      <QueryState
        isPending={wearers.isPending}
        isError={wearers.isError}
        isEmpty={rows.length === 0}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: groupId === undefined ? t('devices.empty') : t('devices.groupEmpty'),
          retry: t('common.retry'),
        }}
        onRetry={() => void wearers.refetch()}
      >
        {!wide && <WearerCards wearers={rows} states={states} now={now} label={title} />}
        {wide && (
          <Table data-testid="wearer-table" label={title}>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <Th pinned>{t('devices.columns.name')}</Th>
                <Th>{t('devices.columns.group')}</Th>
                <Th>{t('devices.columns.bracelet')}</Th>
                <Th>{t('live:columns.heartRate')}</Th>
                <Th>{t('live:columns.skinTemperature')}</Th>
                <Th>{t('live:columns.worn')}</Th>
                <Th>{t('devices.columns.battery')}</Th>
                <Th>{t('live:columns.connection')}</Th>
                <Th>{t('live:columns.lastSeen')}</Th>
                <Th>{t('live:columns.alerts')}</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((wearer) => {
                const state = states.get(wearer.uid);
                const battery = state?.battery ?? wearer.battery;
                return (
                  <tr key={wearer.uid} data-testid="wearer-row" data-uid={wearer.uid}>
                    <Td pinned>
                      <AppLink
                        to={paths.device.detail.build({
                          clientId: wearer.clientId,
                          uid: wearer.uid,
                        })}
                        className={`font-medium text-teal-800 hover:underline ${focusRing}`}
                      >
                        <PersonName name={wearer.name} />
                      </AppLink>
                    </Td>
                    <Td>{wearer.groupName ?? none}</Td>
                    <Td>{wearer.deviceName ?? wearer.serialNumber ?? none}</Td>
                    <Td className="tabular-nums" data-testid="live-heart-rate">
                      {state ? text.heartRate(state.heartRate) : none}
                    </Td>
                    <Td className="tabular-nums">
                      {state ? text.skinTemperature(state.skinTemperature) : none}
                    </Td>
                    <Td>{state ? <WornState worn={state.worn} /> : none}</Td>
                    <Td className="tabular-nums">
                      <BatteryState
                        battery={battery}
                        label={
                          battery === null ? none : t('devices.batteryValue', { value: battery })
                        }
                      />
                    </Td>
                    <Td>{state ? <ConnectionState connection={state.connection} /> : none}</Td>
                    <Td>{state ? <LastSeen at={state.lastSeenAt} now={now} /> : none}</Td>
                    <Td data-testid="live-alerts">
                      {state && state.openAlerts.length > 0 ? (
                        <ul className="flex flex-wrap gap-1" aria-label={t('live:columns.alerts')}>
                          {state.openAlerts.map((alert) => (
                            <li key={alert.id}>
                              <AlertBadge type={alert.type} level={alert.level} />
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <span className="text-slate-600">{t('live:values.noAlerts')}</span>
                      )}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </QueryState>
    </section>
  );
}
