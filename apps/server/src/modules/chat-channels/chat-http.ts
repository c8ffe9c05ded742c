import type { NotificationStatus } from '@wearable/domain';

/** What a chat adapter says about one message (the notification provider's SendResult). */
export interface SendResult {
  status: NotificationStatus;
  /** The service's id of the message, where it gives one (Slack's ts). */
  providerId?: string;
  error?: string;
}

/** One request to a chat service, as the adapter builds it. */
export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the service answered (or that it did not). */
export type ChatAnswer =
  | { kind: 'answer'; status: number; retryAfter: string | null; body: string }
  /** No connection was made: nothing reached the service, so a retry cannot double a message. */
  | { kind: 'unreached'; error: string }
  /** Sent, and no answer by the deadline: it may have arrived. */
  | { kind: 'timeout'; error: string };

/** The answer a request got, by `fetch`, read to at most 64 KiB. Never throws. */
export async function chatFetch(request: ChatRequest, timeoutMs: number): Promise<ChatAnswer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: deadline,
    });
  } catch (err) {
    if (deadline.aborted) return { kind: 'timeout', error: `no answer within ${timeoutMs} ms` };
    // The code only (ECONNREFUSED, ENOTFOUND): a message may quote the URL, and a webhook URL is a secret.
    const cause = (err as { cause?: { code?: string } }).cause;
    return { kind: 'unreached', error: cause?.code ?? 'the request could not be sent' };
  }
  try {
    const body = (await res.text()).slice(0, 65_536);
    return { kind: 'answer', status: res.status, retryAfter: res.headers.get('retry-after'), body };
  } catch {
    return { kind: 'timeout', error: `the answer did not end within ${timeoutMs} ms` };
  }
}

/** What came of a request: the adapter's reading of a 2xx, or why it failed. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };
/** How an adapter reads a 2xx answer (a 2xx may still say no: Slack's `ok: false`). */
export type ReadOk<T> = (body: string) => Outcome<T>;

/** The longest Retry-After honoured while the notice waits; a longer one fails the attempt. */
export const RETRY_AFTER_MAX_MS = 30_000;
/** Attempts in all (the first and two retries). */
export const CHAT_ATTEMPTS = 3;

export interface RetryOptions {
  timeoutMs: number;
  retryBaseMs: number;
  /** Waits (tests may shorten time; the app waits for real). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The request carries an idempotency key (LINE's X-Line-Retry-Key): a timeout is resent, and a 409
   * (the key was accepted already) is the 2xx it stands for.
   */
  idempotent?: boolean;
  /** Sends the request (tests may count); chatFetch by default. */
  fetchOnce?: (request: ChatRequest, timeoutMs: number) => Promise<ChatAnswer>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds (or an HTTP date) of a Retry-After header, in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The retry policy of every chat adapter (decision 0022): a 2xx is read by the adapter; 429 waits its
 * Retry-After (at most RETRY_AFTER_MAX_MS) and tries again; a 5xx or a connection that was never made
 * is tried again after retryBaseMs, then twice that; 400, 401, 403, 404 and the other 4xx fail at once
 * with the service's reason. A timeout after the request left is not resent: the service may have
 * posted it, and Slack, Teams and LINE WORKS take no idempotency key, so resending could post it twice
 * (LINE does: `idempotent`, the same X-Line-Retry-Key on every attempt, decision 0024). At most
 * CHAT_ATTEMPTS requests. Never throws.
 */
export async function sendWithRetry<T>(
  request: ChatRequest,
  readOk: ReadOk<T>,
  opts: RetryOptions,
): Promise<Outcome<T>> {
  const sleep = opts.sleep ?? sleepFor;
  const fetchOnce = opts.fetchOnce ?? chatFetch;
  let last = '';
  for (let attempt = 1; attempt <= CHAT_ATTEMPTS; attempt++) {
    const answer = await fetchOnce(request, opts.timeoutMs);
    const retriesLeft = attempt < CHAT_ATTEMPTS;
    if (answer.kind === 'timeout') {
      if (!opts.idempotent)
        return { ok: false, error: `${answer.error}; not resent, as it may have been delivered` };
      last = answer.error;
      if (retriesLeft) await sleep(opts.retryBaseMs * 2 ** (attempt - 1));
      continue;
    }
    if (answer.kind === 'unreached') {
      last = `could not connect (${answer.error})`;
      if (retriesLeft) await sleep(opts.retryBaseMs * 2 ** (attempt - 1));
      continue;
    }
    const { status } = answer;
    if ((status >= 200 && status < 300) || (status === 409 && opts.idempotent)) {
      return readOk(answer.body);
    }
    const reason = `HTTP ${status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`;
    if (status === 429) {
      const wait = retryAfterMs(answer.retryAfter) ?? opts.retryBaseMs * 2 ** (attempt - 1);
      last = `${reason} (rate limited)`;
      if (wait > RETRY_AFTER_MAX_MS)
        return { ok: false, error: `${last}; Retry-After ${wait / 1000} s is too long` };
      if (retriesLeft) await sleep(wait);
      continue;
    }
    if (status >= 500) {
      last = reason;
      if (retriesLeft) await sleep(opts.retryBaseMs * 2 ** (attempt - 1));
      continue;
    }
    return { ok: false, error: reason };
  }
  return { ok: false, error: `${last}; gave up after ${CHAT_ATTEMPTS} attempts` };
}
