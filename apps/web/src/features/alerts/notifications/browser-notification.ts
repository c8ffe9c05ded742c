/** Asks once, on a user gesture; a refusal or a missing API is fine (spec: permission failures swallowed). */
export function requestNotificationPermission(): void {
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    void Notification.requestPermission().catch(() => undefined);
  } catch {
    // Some browsers throw when asked outside a gesture.
  }
}

/** Whether the tab is out of sight (another tab, a minimised window): the system notification speaks for it. */
export const tabHidden = (): boolean => document.visibilityState === 'hidden';

/**
 * A system notification when the reader allowed them; otherwise nothing. One `tag` replaces the last of the same
 * tag (the count has one; each urgent alert its own); `requireInteraction` keeps an emergency on screen.
 */
export function showBrowserNotification(
  title: string,
  body: string,
  { tag = 'wearable-alerts', requireInteraction = false } = {},
): void {
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const notification = new Notification(title, { body, tag, requireInteraction });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch {
    // Notifications may be blocked by policy; the in-page popup still shows.
  }
}
