import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { QueryState } from '../../components/ui/query-state';
import { Spinner } from '../../components/ui/spinner';
import {
  BatteryState,
  LastSeen,
  summaryPollMs,
  useLiveStatus,
  useNow,
  useWearerStateText,
  useWearerSummary,
  WornState,
} from '../../features/live';
import { paths } from '../../config/paths';
import { isMonth, monthOf, MonthlyReport, RecordView } from '../../features/records';
import { AppLink } from '../../lib/app-path';
import { PersonalAlerts } from './personal-alerts';
import { PersonalWearerPage } from './personal-wearer-page';

/** /user/record: the personal home — the wearer's state now, then their records and alerts. */
export function PersonalRecordPage() {
  const { t, ready } = useTranslation(['records', 'common', 'live', 'alerts']);
  // ?report=YYYY-MM shows the monthly report here: personal users may open only their four pages (spec, guard).
  const [search, setSearch] = useSearchParams();
  const report = search.get('report');
  const summary = useWearerSummary(summaryPollMs(useLiveStatus()));
  const seenAt = (uid: string) => summary.data?.wearers.find((w) => w.uid === uid)?.lastSeenAt;
  if (!ready) return <Spinner label={t('common:common.loading')} />;
  return (
    <PersonalWearerPage
      title={t('common:pages.userRecord')}
      wearerLine={(wearer) => t('wearerLine', { name: wearer.name })}
    >
      {(wearer) =>
        report === null ? (
          <>
            <LatestState uid={wearer.uid} />
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
              <AppLink
                to={`${paths.user.record.build()}?report=${monthOf(new Date())}`}
                className="font-medium text-teal-800 underline underline-offset-4"
                data-testid="record-report-link"
              >
                {t('report.open')}
              </AppLink>
              <span>{t('report.openHelp')}</span>
            </p>
            <RecordView
              uid={wearer.uid}
              seenAt={seenAt(wearer.uid)}
              renderAlerts={(period) => <PersonalAlerts uid={wearer.uid} period={period} />}
            />
          </>
        ) : (
          <>
            <p className="text-sm" data-print="hide">
              <AppLink to={paths.user.record.build()} className="text-teal-800 hover:underline">
                {t('report.backToRecord')}
              </AppLink>
            </p>
            <MonthlyReport
              uid={wearer.uid}
              month={isMonth(report) ? report : monthOf(new Date())}
              onMonthChange={(month) => setSearch({ report: month }, { replace: true })}
              typeLabel={(type) => t(`alerts:types.${type}`)}
            />
          </>
        )
      }
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
    <section
      aria-labelledby="latest-title"
      data-testid="record-latest"
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="latest-title" className="mb-3 text-base font-semibold text-slate-900">
        {t('latest.title')}
      </h2>
      <QueryState
        isPending={summary.isPending}
        isError={summary.isError}
        isEmpty={state === undefined || state.lastSeenAt === null}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: t('empty.latest'),
          retry: t('common:common.retry'),
        }}
        onRetry={() => void summary.refetch()}
      >
        {state && (
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
            {[
              {
                key: 'heartRate',
                label: t('live:columns.heartRate'),
                value: text.heartRate(state.heartRate),
              },
              {
                key: 'skinTemperature',
                label: t('live:columns.skinTemperature'),
                value: text.skinTemperature(state.skinTemperature),
              },
              {
                key: 'worn',
                label: t('live:columns.worn'),
                value: <WornState worn={state.worn} text={text} />,
              },
              {
                key: 'battery',
                label: t('live:columns.battery'),
                value: <BatteryState battery={state.battery} label={text.battery(state.battery)} />,
              },
              {
                key: 'lastSeen',
                label: t('live:columns.lastSeen'),
                value: <LastSeen at={state.lastSeenAt} now={now} text={text} />,
              },
            ].map((fact) => (
              <div key={fact.key} data-testid={`latest-${fact.key}`}>
                <dt className="text-xs text-slate-500">{fact.label}</dt>
                <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums">
                  {fact.value}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </QueryState>
    </section>
  );
}
