import type { AlertView } from '@wearable/domain';
import { clsx } from 'clsx';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';
import { placeLabel } from '../components/alert-text';
import { alertSubject } from '../components/alert-text';

interface WallMonitorOverlayProps {
  alert: AlertView;
  /** How many other unconfirmed EMERGENCY/CRITICAL alerts wait behind this one. */
  more: number;
  onConfirm: () => void;
  onDismiss: () => void;
  /** The confirm dialog, nested so that it stacks above this one. */
  children?: ReactNode;
}

/**
 * The wall monitor's full-screen alert: a modal dialog naming who, what, where and when, with "確認する" (the
 * console's confirm dialog), "詳細を見る" (the wearer's page) and "閉じる" (dismissed on this screen only).
 */
export function WallMonitorOverlay({
  alert,
  more,
  onConfirm,
  onDismiss,
  children,
}: WallMonitorOverlayProps) {
  const { t } = useTranslation('alerts');
  const type = t(`types.${alert.type}`);
  const place = placeLabel((key, opts) => t(key, opts), alert.place) ?? t('place.notRecorded');
  const button = clsx(
    'inline-flex min-h-12 items-center justify-center rounded-md px-5 text-base font-semibold',
    focusRing,
    'focus-visible:outline-white',
  );
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onDismiss()}>
      <RadixDialog.Portal>
        <RadixDialog.Content
          data-testid="wall-monitor-alert"
          data-alert-level={alert.level}
          aria-describedby={undefined}
          className={clsx(
            'fixed inset-0 z-50 flex flex-col items-center justify-center overflow-y-auto p-6 text-white focus:outline-none',
            alert.level === 'EMERGENCY' ? 'bg-red-800' : 'bg-red-700',
          )}
        >
          <div className="w-full max-w-3xl">
            <RadixDialog.Title className="text-3xl font-bold sm:text-5xl">
              {t('attention.wallTitle', { level: t(`levels.${alert.level}`), type })}
            </RadixDialog.Title>
            <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-xl sm:text-3xl">
              <dt className="font-semibold">{t('attention.wallWho')}</dt>
              <dd data-testid="wall-monitor-who">{alertSubject(t, alert)}</dd>
              <dt className="font-semibold">{t('attention.wallWhat')}</dt>
              <dd>{type}</dd>
              <dt className="font-semibold">{t('attention.wallWhere')}</dt>
              <dd>{place}</dd>
              <dt className="font-semibold">{t('attention.wallWhen')}</dt>
              <dd>
                <DateTime at={alert.openedAt} />
              </dd>
            </dl>
            {more > 0 && <p className="mt-4 text-lg">{t('attention.wallMore', { count: more })}</p>}
            <div className="mt-8 flex flex-wrap gap-3">
              <button
                type="button"
                data-testid="wall-monitor-confirm"
                onClick={onConfirm}
                className={clsx(button, 'bg-white text-red-900 hover:bg-red-50')}
              >
                {t('attention.confirm')}
              </button>
              <AppLink
                to={
                  alert.wearer
                    ? paths.device.detail.build({ clientId: alert.clientId, uid: alert.wearer.uid })
                    : paths.alertHistories.build()
                }
                onClick={onDismiss}
                className={clsx(button, 'border-2 border-white hover:bg-red-900')}
              >
                {t('attention.wallDetail')}
              </AppLink>
              <RadixDialog.Close
                data-testid="wall-monitor-dismiss"
                className={clsx(button, 'border-2 border-white hover:bg-red-900')}
              >
                {t('attention.wallDismiss')}
              </RadixDialog.Close>
            </div>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
