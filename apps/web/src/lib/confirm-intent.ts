/**
 * A push notification's 確認 as an intent the confirm page can trust (issue 38 item 1). The service
 * worker writes it to Cache Storage when the person presses 確認 in the notification, then opens
 * /alerts/{id}/confirm; the page confirms at once only when it finds a fresh intent for that alert,
 * and takes it. A link to the page from anywhere else (a message, a mail) finds none, so it shows a
 * 確認 button instead of confirming by itself: opening a URL never confirms an SOS. Used by the
 * service worker (src/sw/sw.ts) and the page alike; it needs nothing but Cache Storage.
 */
export const CONFIRM_INTENTS_CACHE = 'confirm-intents';
/** Long enough for a sign-in on the way (the guard sends a signed-out person to /login and back). */
export const CONFIRM_INTENT_MAX_AGE_MS = 10 * 60_000;

export const confirmIntentPath = (alertId: string) =>
  `/__confirm-intent/${encodeURIComponent(alertId)}`;

/** Records the intent (in the service worker, on 確認). */
export async function recordConfirmIntent(origin: string, alertId: string, now = Date.now()) {
  const cache = await caches.open(CONFIRM_INTENTS_CACHE);
  await cache.put(new URL(confirmIntentPath(alertId), origin).href, new Response(String(now)));
}

/** Takes a fresh intent for the alert (in the page): true once, false without one or without Cache Storage. */
export async function takeConfirmIntent(alertId: string, now = Date.now()): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  try {
    const cache = await caches.open(CONFIRM_INTENTS_CACHE);
    const key = new URL(confirmIntentPath(alertId), location.origin).href;
    const hit = await cache.match(key);
    if (!hit) return false;
    await cache.delete(key);
    const at = Number(await hit.text());
    return Number.isFinite(at) && now - at >= 0 && now - at <= CONFIRM_INTENT_MAX_AGE_MS;
  } catch {
    return false;
  }
}
