import { type AlertView, isHeatAlertType } from '@wearable/domain';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { confirmedCount, useBatchConfirm, useConfirmAlert } from '../api/alerts-api';
import { pageHeadingElement } from '../../../components/ui/page-heading';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { alertStatusOf } from './alert-cells';
import { ConfirmAlertDialog, type ConfirmChoice } from './confirm-alert-dialog';
import { UnassignedDeviceDialog } from './unassigned-device-dialog';

/** The toast id of confirmation results: a new one replaces the last. */
const CONFIRM_TOAST_ID = 'alert-confirm';

/**
 * Confirming alerts from any list: `ask(ids)` opens the reason/note dialog, which sends one
 * confirm (one id) or one batch confirm. Each action ends in exactly one toast, which replaces
 * the previous result; the count popup does not announce a lower count (notification-rules.ts).
 */
export function useConfirmAlerts(onDone?: () => void): {
  /** `alert`: the one alert confirmed (a heat alert's dialog shows the site's procedure). */
  ask: (ids: string[], alert?: AlertView) => void;
  pendingIds: ReadonlySet<string>;
  dialog: ReactNode;
} {
  const { t } = useTranslation('alerts');
  const [ids, setIds] = useState<string[] | null>(null);
  const [heatGroupId, setHeatGroupId] = useState<string | null>(null);
  // The one alert being confirmed, when the caller knows it: the dialog names whom and what.
  const [subject, setSubject] = useState<AlertView | null>(null);
  // One alert of a device no wearer holds: once confirmed, its register / assign actions (issue 34).
  const [unassigned, setUnassigned] = useState<AlertView | null>(null);
  const [registering, setRegistering] = useState<AlertView | null>(null);
  const one = useConfirmAlert();
  const batch = useBatchConfirm();
  const pending = one.isPending || batch.isPending;
  const focusAfterRender = useFocusAfterRender();

  const show = (kind: 'success' | 'error', text: string) => {
    toast[kind](text, { id: CONFIRM_TOAST_ID });
  };
  const submit = (choice: ConfirmChoice) => {
    if (!ids) return;
    const finish = () => {
      setIds(null);
      onDone?.();
    };
    const failed = () => show('error', t('confirmFailed'));
    if (ids.length === 1) {
      one.mutate(
        { alertId: ids[0]!, ...choice },
        {
          onSuccess: (res) => {
            finish();
            // Once the render without the dialog (which held the focus) is committed: the row's status.
            const alertId = ids[0]!;
            focusAfterRender(() => alertStatusOf(alertId));
            show('success', t(`confirmResult.${res.result}`));
            if (unassigned?.id === alertId) setRegistering(unassigned);
          },
          onError: failed,
        },
      );
    } else {
      batch.mutate(
        { alertIds: ids, ...choice },
        {
          onSuccess: (res) => {
            finish();
            focusAfterRender(pageHeadingElement);
            show(
              'success',
              t('batchConfirmed', { count: confirmedCount(res), total: res.results.length }),
            );
          },
          onError: failed,
        },
      );
    }
  };

  return {
    ask: (next, alert) => {
      setUnassigned(alert && next.length === 1 && alert.wearer === null ? alert : null);
      setSubject(alert && next.length === 1 ? alert : null);
      setHeatGroupId(
        alert && next.length === 1 && isHeatAlertType(alert.type) ? alert.groupId : null,
      );
      setIds(next.length > 0 ? next : null);
    },
    pendingIds: new Set(pending && ids ? ids : []),
    dialog: (
      <>
        <ConfirmAlertDialog
          key={ids?.join(',') ?? 'closed'}
          count={ids?.length ?? 0}
          open={ids !== null}
          pending={pending}
          onCancel={() => setIds(null)}
          onSubmit={submit}
          heatGroupId={heatGroupId}
          alert={subject}
        />
        <UnassignedDeviceDialog alert={registering} onClose={() => setRegistering(null)} />
      </>
    ),
  };
}
