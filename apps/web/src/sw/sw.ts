/// <reference lib="webworker" />
// The console's service worker (issue 38 item 1), built to /sw.js with scope /: it makes the console an
// installable app and shows alert notices that arrive by Web Push, with 確認 and 詳細. It caches nothing
// (the console always loads from the network; only /phone/ works offline). The push's payload carries the
// alert id and the words of its SMS, never a token: 確認 opens the console's confirm page, which confirms
// with the person's own session, after a sign-in when it has ended.
import { type NoticeClick, noticeOptions, parseNotice, targetOf } from './notice';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The action words in the browser's language, from the console's own locale file. */
async function actionLabels(): Promise<{ confirm: string; details: string } | null> {
  const lng = self.navigator.language.toLowerCase().startsWith('en') ? 'en' : 'ja';
  try {
    const res = await fetch(`/locales/${lng}/common.json`);
    const json = (await res.json()) as {
      push?: { actions?: { confirm?: string; details?: string } };
    };
    const a = json.push?.actions;
    return a?.confirm && a.details ? { confirm: a.confirm, details: a.details } : null;
  } catch {
    return null; // offline: the notification goes without buttons; a tap opens the alert
  }
}

self.addEventListener('push', (event) => {
  const notice = parseNotice(event.data?.text() ?? '');
  if (!notice) return;
  event.waitUntil(
    actionLabels().then((labels) =>
      self.registration.showNotification(notice.title, noticeOptions(notice, labels)),
    ),
  );
});

/** Focuses an open console window and takes it to `path`, or opens one. */
async function openConsole(path: string): Promise<void> {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    // Focusing needs the click's user activation; without it (a browser that withholds it) the window
    // is still taken to the page.
    await open.focus().catch(() => undefined);
    if (await open.navigate(url).catch(() => null)) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification.data as NoticeClick | undefined, event.action);
  if (target) event.waitUntil(openConsole(target));
});
