import type { AlertView, Role } from '@wearable/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useAppPath } from '../../../lib/app-path';
import { useConfirmAlerts } from '../components/use-confirm-alerts';
import { UNCONFIRMED_PARAM } from '../api/alert-filters';
import { alertSubject, placeLabel, WEARER_ALERTS_ID } from '../components/alert-text';
import { armAlertSound, enableAlertSound, playAlertSound } from './alert-sound';
import { loudestLevel } from './alert-tones';
import { ringingAlerts, unseenAlerts, wallMonitorAlert } from './attention-rules';
import {
  requestNotificationPermission,
  showBrowserNotification,
  tabHidden,
} from './browser-notification';
import { AlertPopup } from './alert-popup';
import { notificationsAllowed, popupTone, type PopupTone } from './notification-rules';
import { RingingAlerts } from './ringing-alerts';
import { SoundControl } from './sound-control';
import { MUTED_ALERTS_KEY, useAlertIdSet } from './tab-alert-memory';
import { bannerAlerts, useAlertNotifier, type UnconfirmedAlerts } from './use-alert-notifier';
import { useAlertRepeat } from './use-alert-repeat';
import { useAlertSoundState } from './use-alert-sound';
import { useWakeLock } from './use-wake-lock';
import { useWallMonitorSetting } from './wall-monitor-setting';
import { WallMonitorOverlay } from './wall-monitor-overlay';

/**
 * The shell's alert attention, placed by the shell's header (spec sections 6, 8, 9; issue 34 item 5): the sound
 * control while the tab cannot sound, the repeating EMERGENCY tone with its mute, the count popup, system
 * notifications for new urgent alerts while the tab is hidden, and the wall monitor's full-screen alert.
 */
export function AlertNotifier({ role }: { role: Role | null }) {
  const { t, ready } = useTranslation(['alerts', 'common']);
  const { pathname, key: locationKey } = useLocation();
  const navigate = useNavigate();
  const appPath = useAppPath();
  // Waiting for the alerts texts keeps an untranslated key out of the popup.
  const enabled = ready && notificationsAllowed(role, pathname);
  const sound = useAlertSoundState();
  // Sound turned on while this page is open: the band says so until the next navigation (see SoundControl).
  const [soundBefore, setSoundBefore] = useState(sound);
  const [armedOnPage, setArmedOnPage] = useState<string | null>(null);
  if (sound !== soundBefore) {
    setSoundBefore(sound);
    setArmedOnPage(soundBefore === 'off' && sound === 'on' ? locationKey : null);
  }
  const armedHere = armedOnPage === locationKey;
  const [wallMonitor] = useWallMonitorSetting();
  useWakeLock(enabled && wallMonitor);

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
        name: alertSubject(t, urgent),
        type: t(`alerts:types.${urgent.type}`),
        place,
      })}`;
    },
    [t],
  );

  // The urgent alerts already told about (system notification); the first answer only fills it.
  const told = useRef<Set<string> | null>(null);
  const announce = useCallback(
    ({ count, levels, urgent, attention }: UnconfirmedAlerts) => {
      setPopup({ count, tone: popupTone(levels), urgent });
      // A new urgent alert has a notification of its own (below) when the tab is hidden.
      if (told.current === null || unseenAlerts(attention, told.current).length === 0)
        showBrowserNotification(t('common:shell.productName'), textOf(count, urgent));
      void playAlertSound(loudestLevel(levels) ?? 'CRITICAL');
    },
    [t, textOf],
  );
  const close = useCallback(() => setPopup(null), []);

  const unconfirmed = useAlertNotifier(enabled, announce);
  const attention = enabled ? (unconfirmed?.attention ?? []) : [];

  useEffect(() => {
    if (unconfirmed === null) return;
    const fresh = told.current === null ? [] : unseenAlerts(unconfirmed.attention, told.current);
    told.current = new Set([...(told.current ?? []), ...unconfirmed.attention.map((a) => a.id)]);
    if (!tabHidden()) return;
    for (const alert of fresh) {
      const type = t(`alerts:types.${alert.type}`);
      const place = placeLabel((key, opts) => t(`alerts:${key}`, opts), alert.place) ?? '';
      showBrowserNotification(
        t('alerts:attention.notificationTitle', { level: t(`alerts:levels.${alert.level}`), type }),
        t('alerts:attention.notificationBody', { name: alertSubject(t, alert), place }).trim(),
        { tag: `alert-${alert.id}`, requireInteraction: alert.level === 'EMERGENCY' },
      );
    }
  }, [unconfirmed, t]);

  const [muted, mute] = useAlertIdSet(MUTED_ALERTS_KEY);
  const ringing = ringingAlerts(attention, muted);
  useAlertRepeat(ringing, sound === 'on');

  const [dismissed, dismiss] = useAlertIdSet();
  const wall = enabled && wallMonitor ? wallMonitorAlert(attention, dismissed) : null;
  const confirm = useConfirmAlerts();

  if (!enabled) return null;
  // Staff confirming lowers the count: the popup on screen follows it down (no new popup) and goes at zero.
  const count = unconfirmed?.count ?? null;
  const shown = popup === null ? 0 : count === null ? popup.count : Math.min(popup.count, count);
  // The banner names what is unconfirmed now (confirming one takes it off the list at once).
  const banner = bannerAlerts(unconfirmed?.alerts ?? []);
  return (
    <>
      {(sound === 'off' || (sound === 'on' && armedHere)) && (
        <SoundControl
          armed={sound === 'on'}
          onEnable={() => {
            requestNotificationPermission();
            void enableAlertSound();
          }}
        />
      )}
      {sound === 'on' && (
        <RingingAlerts
          ringing={ringing}
          onConfirm={(alert) => confirm.ask([alert.id], alert)}
          onMute={(alert) => mute(alert.id)}
        />
      )}
      {popup !== null && shown > 0 && (
        <AlertPopup
          text={textOf(shown, null)}
          tone={popup.tone}
          {...banner}
          onClose={close}
          onConfirm={(alert) => confirm.ask([alert.id], alert)}
          onDetail={(alert) => {
            setPopup(null);
            void navigate(
              appPath(
                alert.wearer
                  ? `${paths.device.detail.build({ clientId: alert.clientId, uid: alert.wearer.uid })}#${WEARER_ALERTS_ID}`
                  : paths.alertHistories.build(),
              ),
            );
          }}
          onOpen={() => {
            setPopup(null);
            void navigate(appPath(`${paths.alertHistories.build()}?${UNCONFIRMED_PARAM}`));
          }}
        />
      )}
      {wall === null ? (
        confirm.dialog
      ) : (
        <WallMonitorOverlay
          alert={wall.alert}
          more={wall.more}
          onConfirm={() => confirm.ask([wall.alert.id], wall.alert)}
          onDismiss={() => dismiss(wall.alert.id)}
        >
          {confirm.dialog}
        </WallMonitorOverlay>
      )}
    </>
  );
}
