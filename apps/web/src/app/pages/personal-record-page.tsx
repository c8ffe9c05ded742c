import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import { BatteryState, LastSeen, summaryPollMs, useLiveStatus, useNow, useWearerStateText, useWearerSummary, WornState } from '../../features/live';
import { RecordView } from '../../features/records';
import { PersonalAlerts } from './personal-alerts';
import { PersonalWearerPage } from './personal-wearer-page';

/** /user/record: the personal home — the wearer's state now, then their records and alerts. */
export function PersonalRecordPage() {
  const { t, ready } = useTranslation(['records', 'common', 'live', 'alerts']);
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <PersonalWearerPage title={t('common:pages.userRecord')} wearerLine={(wearer) => t('wearerLine', { name: wearer.name })}>
      {(wearer) => (
        <>
          <LatestState uid={wearer.uid} />
          <RecordView uid={wearer.uid} renderAlerts={(period) => <PersonalAlerts uid={wearer.uid} period={period} />} />
        </>
      )}
    </PersonalWearerPage>
  );
}

function LatestState({ uid }: { uid: string }) {
  const { t } = useTranslation(['records', 'common', 'live']);
  const summary = useWearerSummary(summaryPollMs(useLiveStatus()));
  const text = useWearerStateText();
  const now = useNow();
  const state = summary.data?.wearers.find((w) => w.uid === uid);
  return (
    <section aria-labelledby="latest-title" data-testid="record-latest" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="latest-title" className="mb-3 text-base font-semibold text-slate-900">
        {t('latest.title')}
      </h2>
      <QueryState
        isPending={summary.isPending}
        isError={summary.isError}
        isEmpty={state === undefined || state.lastSeenAt === null}
        labels={{ loading: t('common:common.loading'), error: t('common:common.loadFailed'), empty: t('empty.latest'), retry: t('common:common.retry') }}
        onRetry={() => void summary.refetch()}
      >
        {state && (
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
            {[
              { key: 'heartRate', label: t('live:columns.heartRate'), value: text.heartRate(state.heartRate) },
              { key: 'skinTemperature', label: t('live:columns.skinTemperature'), value: text.skinTemperature(state.skinTemperature) },
              { key: 'worn', label: t('live:columns.worn'), value: <WornState worn={state.worn} /> },
              { key: 'battery', label: t('live:columns.battery'), value: <BatteryState battery={state.battery} label={text.battery(state.battery)} /> },
              { key: 'lastSeen', label: t('live:columns.lastSeen'), value: <LastSeen at={state.lastSeenAt} now={now} /> },
            ].map((fact) => (
              <div key={fact.key} data-testid={`latest-${fact.key}`}>
                <dt className="text-xs text-slate-500">{fact.label}</dt>
                <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums">{fact.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </QueryState>
    </section>
  );
}
