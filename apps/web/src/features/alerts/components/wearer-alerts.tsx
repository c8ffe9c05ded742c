import type { AlertView } from '@wearable/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { QueryState } from '../../../components/ui/query-state';
import { paths } from '../../../config/paths';
import { AppLink, useIsDemo } from '../../../lib/app-path';
import { useCan } from '../../../lib/use-can';
import { useAlertList } from '../api/alerts-api';
import { AlertTable } from './alert-table';
import { AlertTimelineDialog } from './alert-timeline-dialog';
import { SnoozeDialog } from './snooze-dialog';
import { useConfirmAlerts } from './use-confirm-alerts';
import { WEARER_ALERTS_ID } from './alert-text';

const RECENT = 10;

/** The wearer's latest alerts with why they fired; confirmable by staff outside the demo. */
export function WearerAlerts({ uid, clientId }: { uid: string; clientId: string }) {
  const { t } = useTranslation(['alerts', 'common']);
  const list = useAlertList(
    { notConfirmed: false, type: '', level: '', period: '30d', uid },
    1,
    RECENT,
  );
  const confirmFlow = useConfirmAlerts();
  const canConfirm = useCan('alert:confirm', { organizationId: clientId, wearerId: uid });
  const confirmOne = (alert: AlertView) => confirmFlow.ask([alert.id], alert);
  const canReadTimeline = useCan('notification:read', { organizationId: clientId, wearerId: uid });
  const [timelineOf, setTimelineOf] = useState<AlertView | null>(null);
  const demo = useIsDemo();
  const canSnooze = useCan('alert:snooze', { organizationId: clientId, wearerId: uid }) && !demo;
  const [snoozeOf, setSnoozeOf] = useState<AlertView | null>(null);
  // The banner's 詳細 opens the wearer's page at their alerts (#wearer-alerts): there once they are read.
  const { hash } = useLocation();
  const loaded = list.data !== undefined;
  useEffect(() => {
    if (hash === `#${WEARER_ALERTS_ID}` && loaded)
      document.getElementById(WEARER_ALERTS_ID)?.scrollIntoView({ block: 'start' });
  }, [hash, loaded]);

  return (
    <section
      id={WEARER_ALERTS_ID}
      aria-labelledby="wearer-alerts-title"
      data-testid="wearer-alerts"
      className="mt-8 scroll-mt-32"
    >
      <div className="mb-3 flex items-baseline justify-between gap-2">
        <h2 id="wearer-alerts-title" className="text-base font-semibold text-slate-900">
          {t('alerts:wearer.title')}
        </h2>
        <AppLink
          to={paths.device.alertHistories.build({ clientId, uid })}
          className="text-sm text-teal-800 hover:underline"
        >
          {t('alerts:wearer.all')}
        </AppLink>
      </div>
      <QueryState
        isPending={list.isPending}
        isError={list.isError}
        isEmpty={(list.data?.alerts.length ?? 0) === 0}
        labels={{
          loading: t('common:common.loading'),
          error: t('common:common.loadFailed'),
          empty: t('alerts:wearer.empty'),
          retry: t('common:common.retry'),
        }}
        onRetry={() => void list.refetch()}
      >
        <AlertTable
          alerts={list.data?.alerts ?? []}
          selection={null}
          onConfirm={canConfirm ? confirmOne : null}
          confirmingIds={confirmFlow.pendingIds}
          showWearer={false}
          onTimeline={canReadTimeline ? setTimelineOf : undefined}
          onSnooze={canSnooze ? setSnoozeOf : undefined}
        />
      </QueryState>
      {confirmFlow.dialog}
      <AlertTimelineDialog alert={timelineOf} onClose={() => setTimelineOf(null)} />
      <SnoozeDialog alert={snoozeOf} onClose={() => setSnoozeOf(null)} />
    </section>
  );
}
