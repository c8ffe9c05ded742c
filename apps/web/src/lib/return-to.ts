import { paths } from '../config/paths';

/**
 * Where a signed-out visitor was going (an alert SMS's link, a bookmark): kept when the guard sends
 * them to /login and taken once after sign-in. Only a path of this console qualifies: a value that
 * could leave the origin ("//evil.example", "/\\evil.example", "https://…") or carries a fragment
 * (sign-in tokens travel in fragments) is never followed (an open redirect is a test case).
 */
const KEY = 'returnTo';
/** Older than this, a remembered page is not where the visitor is going any more. */
const MAX_AGE_MS = 30 * 60_000;
const BASE = 'https://console.invalid';

const hasControl = (s: string): boolean =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The same-origin path and query of `raw`, or null when it is not one to follow. */
export function safeReturnPath(raw: string): string | null {
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControl(raw))
    return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = url.pathname;
  // The sign-in pages themselves: after sign-in they only send home.
  if (path === paths.root.path || [paths.login, paths.verify].some((r) => path.startsWith(r.path)))
    return null;
  return path + url.search;
}

export function rememberReturnTo(raw: string, now = Date.now()): void {
  // A logout just now: the page it leaves is seen signed out on the way to /login, not asked for.
  if (now < forgottenUntil) return;
  const path = safeReturnPath(raw);
  if (path === null) return;
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ path, at: now }));
  } catch {
    // Private mode: the visitor lands on the home page as before.
  }
}

/** The remembered page (once: it is forgotten as it is taken), or null. */
export function takeReturnTo(now = Date.now()): string | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(KEY);
    window.localStorage.removeItem(KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as { path?: unknown; at?: unknown };
    if (typeof value.path !== 'string' || typeof value.at !== 'number') return null;
    if (now - value.at > MAX_AGE_MS || value.at > now + 60_000) return null;
    return safeReturnPath(value.path);
  } catch {
    return null;
  }
}

let forgottenUntil = 0;

/** A logout (by hand or at the session's end): the next person to sign in here starts at home. */
export function forgetReturnTo(now = Date.now()): void {
  forgottenUntil = now + 2_000;
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing stored that we could reach.
  }
}
