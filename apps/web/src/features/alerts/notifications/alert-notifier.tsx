import type { Role } from '@wearable/domain';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useAppPath } from '../../../lib/app-path';
import { armAlertSound, playAlertSound } from './alert-sound';
import { requestNotificationPermission, showBrowserNotification } from './browser-notification';
import { AlertPopup } from './alert-popup';
import { notificationsAllowed, popupTone, type PopupTone } from './notification-rules';
import { useAlertNotifier, type UnconfirmedAlerts } from './use-alert-notifier';

/** The shell's alert popup, browser notification and tone (spec sections 6, 8, 9); placed by the shell's header. */
export function AlertNotifier({ role }: { role: Role | null }) {
  const { t, ready } = useTranslation(['alerts', 'common']);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const appPath = useAppPath();
  // Waiting for the alerts texts keeps an untranslated key out of the popup.
  const enabled = ready && notificationsAllowed(role, pathname);

  useEffect(() => {
    if (!enabled) return;
    const disarm = armAlertSound();
    const ask = () => {
      requestNotificationPermission();
      window.removeEventListener('pointerdown', ask);
    };
    window.addEventListener('pointerdown', ask);
    return () => {
      disarm();
      window.removeEventListener('pointerdown', ask);
    };
  }, [enabled]);

  const [popup, setPopup] = useState<{ count: number; tone: PopupTone } | null>(null);
  const announce = useCallback(
    ({ count, levels }: UnconfirmedAlerts) => {
      setPopup({ count, tone: popupTone(levels) });
      showBrowserNotification(
        t('common:shell.productName'),
        t('alerts:notification.text', { count }),
      );
      void playAlertSound();
    },
    [t],
  );
  const close = useCallback(() => setPopup(null), []);

  const count = useAlertNotifier(enabled, announce);
  if (!enabled || popup === null) return null;
  // Staff confirming lowers the count: the popup on screen follows it down (no new popup) and goes at zero.
  const shown = count === null ? popup.count : Math.min(popup.count, count);
  if (shown === 0) return null;
  return (
    <AlertPopup
      text={t('alerts:notification.text', { count: shown })}
      tone={popup.tone}
      onClose={close}
      onOpen={() => {
        setPopup(null);
        void navigate(appPath(paths.alertHistories.build()));
      }}
    />
  );
}
