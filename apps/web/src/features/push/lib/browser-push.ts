import type { PushSubscriptionBody } from '@wearable/domain';

/** The console's service worker (apps/web/src/sw/sw.ts, built to /sw.js, scope /). */
export const CONSOLE_SW_URL = '/sw.js';

/** Whether this browser can receive Web Push at all (iOS only as an installed app on the home screen). */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** The VAPID key as `applicationServerKey` wants it: the bytes of its base64url. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return (
    (await navigator.serviceWorker.getRegistration('/')) ??
    (await navigator.serviceWorker.register(CONSOLE_SW_URL, { scope: '/' }))
  );
}

/** This browser's current subscription, or null (none, or push unsupported). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

export type SubscribeOutcome =
  { ok: true; body: PushSubscriptionBody } | { ok: false; reason: 'denied' | 'failed' };

/**
 * Asks for the notification permission, then subscribes this browser with the server's key (an earlier
 * subscription with another key is replaced). The body is what the server stores.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<SubscribeOutcome> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'denied' };
  try {
    const reg = await registration();
    await navigator.serviceWorker.ready;
    const key = keyBytes(publicKey);
    const old = await reg.pushManager.getSubscription();
    if (old) await old.unsubscribe();
    const sub = await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
    const json = sub.toJSON();
    const p256dh = json.keys?.p256dh;
    const auth = json.keys?.auth;
    if (!json.endpoint || !p256dh || !auth) return { ok: false, reason: 'failed' };
    return {
      ok: true,
      body: {
        endpoint: json.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh, auth },
      },
    };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}
