import type { AlertView, Role } from '@wearable/domain';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useAppPath } from '../../../lib/app-path';
import { armAlertSound, playAlertSound } from './alert-sound';
import { requestNotificationPermission, showBrowserNotification } from './browser-notification';
import { placeLabel } from '../components/alert-text';
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

  const [popup, setPopup] = useState<{
    count: number;
    tone: PopupTone;
    urgent: AlertView | null;
  } | null>(null);
  /** "1件のアラートがあります 山田 太郎: SOS発信・場所: 2階 食堂": the count, and where the most urgent one is. */
  const textOf = useCallback(
    (count: number, urgent: AlertView | null) => {
      const base = t('alerts:notification.text', { count });
      if (urgent === null) return base;
      const place = placeLabel((key, opts) => t(`alerts:${key}`, opts), urgent.place);
      return `${base} ${t('alerts:notification.where', {
        name: urgent.wearer.name,
        type: t(`alerts:types.${urgent.type}`),
        place,
      })}`;
    },
    [t],
  );
  const announce = useCallback(
    ({ count, levels, urgent }: UnconfirmedAlerts) => {
      setPopup({ count, tone: popupTone(levels), urgent });
      showBrowserNotification(t('common:shell.productName'), textOf(count, urgent));
      void playAlertSound();
    },
    [t, textOf],
  );
  const close = useCallback(() => setPopup(null), []);

  const count = useAlertNotifier(enabled, announce);
  if (!enabled || popup === null) return null;
  // Staff confirming lowers the count: the popup on screen follows it down (no new popup) and goes at zero.
  const shown = count === null ? popup.count : Math.min(popup.count, count);
  if (shown === 0) return null;
  return (
    <AlertPopup
      text={textOf(shown, popup.urgent)}
      tone={popup.tone}
      onClose={close}
      onOpen={() => {
        setPopup(null);
        void navigate(appPath(paths.alertHistories.build()));
      }}
    />
  );
}
