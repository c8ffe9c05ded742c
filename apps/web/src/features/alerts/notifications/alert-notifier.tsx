import type { Role } from '@wearable/domain';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useAppPath } from '../../../lib/app-path';
import { armAlertSound, playAlertSound } from './alert-sound';
import { requestNotificationPermission, showBrowserNotification } from './browser-notification';
import { notificationsAllowed } from './notification-rules';
import { useAlertNotifier } from './use-alert-notifier';

/** The shell's alert popup, browser notification and tone (spec sections 6, 8, 9). Renders nothing itself. */
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

  const announce = useCallback(
    (count: number) => {
      const text = t('alerts:notification.text', { count });
      toast.warning(text, {
        id: 'alert-count',
        testId: 'alert-popup',
        // Bottom right: the popup must not cover the header menu staff reach for.
        position: 'bottom-right',
        action: { label: t('alerts:notification.open'), onClick: () => void navigate(appPath('/alert-histories')) },
      });
      showBrowserNotification(t('common:shell.productName'), text);
      void playAlertSound();
    },
    [t, navigate, appPath],
  );

  useAlertNotifier(enabled, announce);
  return null;
}
