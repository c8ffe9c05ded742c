/** Asks once, on a user gesture; a refusal or a missing API is fine (spec: permission failures swallowed). */
export function requestNotificationPermission(): void {
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    void Notification.requestPermission().catch(() => undefined);
  } catch {
    // Some browsers throw when asked outside a gesture.
  }
}

/** A system notification when the reader allowed them; otherwise nothing. */
export function showBrowserNotification(title: string, body: string): void {
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    new Notification(title, { body, tag: 'wearable-alerts' });
  } catch {
    // Notifications may be blocked by policy; the in-page popup still shows.
  }
}
