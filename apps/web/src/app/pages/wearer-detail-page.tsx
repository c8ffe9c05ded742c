import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeading } from '../../components/ui/page-heading';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { AlertBadge, WearerAlerts } from '../../features/alerts';
import {
  BatteryState,
  ConnectionState,
  LastSeen,
  LatestValue,
  staleAgeMs,
  summaryPollMs,
  useLiveStatus,
  useNow,
  useWearerStateText,
  useWearerSummary,
  WornState,
} from '../../features/live';
import { WearerTrail } from '../../features/map/components/wearer-trail';
import { HistoryPanel } from '../../features/wearer-detail';
import { AppLink } from '../../lib/app-path';
import { WearerTabs } from './wearer-subpage';

/** /devices/:clientId/:uid: who, how they are now, the last day or week, and their alerts. */
export function WearerDetailPage() {
  const { t, ready } = useTranslation(['common', 'live', 'alerts', 'wearer']);
  const { clientId = '', uid = '' } = useParams();
  const live = useLiveStatus();
  const summary = useWearerSummary(summaryPollMs(live));
  const text = useWearerStateText();
  const now = useNow();
  const wearer = summary.data?.wearers.find((w) => w.uid === uid);
  const none = t('common.none');
  const staleMs = wearer ? staleAgeMs(wearer, now) : null;
  const latest = (value: React.ReactNode, showAge = true) => (
    <LatestValue staleMs={staleMs} text={text} showAge={showAge}>
      {value}
    </LatestValue>
  );
  if (!ready) return <Spinner label={t('common.loading')} />;

  const facts: { key: string; label: string; value: React.ReactNode }[] = wearer
    ? [
        {
          key: 'heartRate',
          label: t('live:columns.heartRate'),
          value: latest(text.heartRate(wearer.heartRate)),
        },
        {
          key: 'skinTemperature',
          label: t('live:columns.skinTemperature'),
          value: latest(text.skinTemperature(wearer.skinTemperature), false),
        },
        {
          key: 'worn',
          label: t('live:columns.worn'),
          value: latest(
            <WornState worn={wearer.worn} text={text} stale={staleMs !== null} />,
            false,
          ),
        },
        {
          key: 'battery',
          label: t('live:columns.battery'),
          value: latest(
            <BatteryState
              battery={wearer.battery}
              label={text.battery(wearer.battery)}
              stale={staleMs !== null}
            />,
            false,
          ),
        },
        {
          key: 'connection',
          label: t('live:columns.connection'),
          value: <ConnectionState connection={wearer.connection} text={text} />,
        },
        {
          key: 'lastSeen',
          label: t('live:columns.lastSeen'),
          value: <LastSeen at={wearer.lastSeenAt} now={now} text={text} />,
        },
      ]
    : [];

  return (
    <section>
      <p className="mb-2 text-sm">
        <AppLink to={paths.devices.list.build()} className="text-teal-800 hover:underline">
          {t('live:detail.back')}
        </AppLink>
      </p>
      <PageHeading
        actions={
          <AppLink
            to={paths.device.report.build({ clientId, uid })}
            className="text-sm text-teal-800 underline underline-offset-4"
            data-testid="wearer-report-link"
          >
            {t('pages.deviceReport')}
          </AppLink>
        }
      >
        {wearer?.name ?? t('pages.deviceDetail')}
      </PageHeading>
      <WearerTabs clientId={clientId} uid={uid} />
      <QueryState
        isPending={summary.isPending}
        isError={summary.isError}
        isEmpty={wearer === undefined}
        labels={{
          loading: t('common.loading'),
          error: t('common.loadFailed'),
          empty: t('live:detail.notFound'),
          retry: t('common.retry'),
        }}
        onRetry={() => void summary.refetch()}
      >
        {wearer && (
          <>
            <dl
              data-testid="wearer-header"
              className="mb-4 flex flex-wrap gap-x-8 gap-y-1 text-sm text-slate-600"
            >
              <div className="flex gap-2">
                <dt>{t('devices.columns.group')}</dt>
                <dd className="font-medium text-slate-800">{wearer.groupName ?? none}</dd>
              </div>
              <div className="flex gap-2">
                <dt>{t('devices.columns.bracelet')}</dt>
                <dd className="font-medium text-slate-800">{wearer.serialNumber ?? none}</dd>
              </div>
            </dl>
            <section
              aria-labelledby="latest-title"
              data-testid="wearer-latest"
              className="rounded-lg border border-slate-200 bg-white p-4"
            >
              <h2 id="latest-title" className="mb-3 text-base font-semibold text-slate-900">
                {t('live:detail.latest')}
              </h2>
              <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
                {facts.map((fact) => (
                  <div key={fact.key}>
                    <dt className="text-xs text-slate-500">{fact.label}</dt>
                    <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums">
                      {fact.value}
                    </dd>
                  </div>
                ))}
              </dl>
              {wearer.openAlerts.length > 0 && (
                <ul className="mt-4 flex flex-wrap gap-1" aria-label={t('live:columns.alerts')}>
                  {wearer.openAlerts.map((alert) => (
                    <li key={alert.id}>
                      <AlertBadge type={alert.type} level={alert.level} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <HistoryPanel uid={uid} lastSeenAt={wearer.lastSeenAt} />
            <WearerTrail uid={uid} />
            <WearerAlerts uid={uid} clientId={clientId} />
          </>
        )}
      </QueryState>
    </section>
  );
}
