import type { AppContext } from '../../context.js';
import { BUS_EVENTS, type SessionsRevokedEvent } from '../../bus/events.js';
import { sessionsService } from '../auth/sessions.service.js';

/**
 * How often open streams are checked against their sessions: a stream ends at most this long
 * after its session is revoked (sign-out, refresh-token reuse) or its user is removed, on
 * whichever server did it (the check reads the database).
 */
export const LIVE_SESSION_CHECK_MS = 5_000;
/** Open streams allowed per sign-in session; a new one closes the oldest. */
export const LIVE_STREAMS_PER_SESSION = 4;
// setTimeout's longest delay; a later expiry is caught by a later check instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface StreamSession {
  sessionId: string;
  /** The access token's expiry: the stream ends then and the client reconnects with a new ticket. */
  expiresAt: Date;
}

interface Stream {
  session: StreamSession;
  end: () => void;
  timer: ReturnType<typeof setTimeout>;
}

type Log = { error(obj: object, msg: string): void };

/** Ends each live stream when its session ends or its access token expires, and caps streams per session. */
export function liveSessionGuard(ctx: AppContext, log: Log) {
  const bySession = new Map<string, Stream[]>();
  const actors = sessionsService(ctx);

  function remove(stream: Stream) {
    clearTimeout(stream.timer);
    const list = bySession.get(stream.session.sessionId);
    if (!list) return;
    const rest = list.filter((s) => s !== stream);
    if (rest.length) bySession.set(stream.session.sessionId, rest);
    else bySession.delete(stream.session.sessionId);
  }
  function endStream(stream: Stream) {
    remove(stream);
    stream.end();
  }

  async function check() {
    if (!bySession.size) return;
    const now = ctx.now();
    const live = await actors.findLiveSessions([...bySession.keys()], now);
    for (const [sessionId, list] of [...bySession]) {
      for (const stream of list) {
        if (!live.has(sessionId) || stream.session.expiresAt <= now) endStream(stream);
      }
    }
  }
  const checker = setInterval(() => {
    check().catch((err: unknown) => log.error({ err }, 'live session check failed'));
  }, LIVE_SESSION_CHECK_MS);
  checker.unref();
  // A session ended on this server (sign out of one, everywhere): its streams end now, not at the next check.
  const onRevoked = (event: SessionsRevokedEvent) => {
    for (const sessionId of event.sessionIds)
      for (const stream of bySession.get(sessionId) ?? []) endStream(stream);
  };
  ctx.bus.on(BUS_EVENTS.sessionsRevoked, onRevoked);

  return {
    /** Registers a stream; `end` closes it. Returns the function to call when it closed anyway. */
    add(session: StreamSession, end: () => void): () => void {
      let list = bySession.get(session.sessionId) ?? [];
      for (
        let [oldest] = list;
        oldest && list.length >= LIVE_STREAMS_PER_SESSION;
        [oldest] = list
      ) {
        endStream(oldest);
        list = bySession.get(session.sessionId) ?? [];
      }
      const delay = Math.min(
        MAX_TIMER_MS,
        Math.max(0, session.expiresAt.getTime() - ctx.now().getTime()),
      );
      const stream: Stream = { session, end, timer: setTimeout(() => endStream(stream), delay) };
      stream.timer.unref();
      bySession.set(session.sessionId, [...list, stream]);
      return () => remove(stream);
    },
    close() {
      clearInterval(checker);
      ctx.bus.off(BUS_EVENTS.sessionsRevoked, onRevoked);
      for (const list of bySession.values()) for (const s of list) clearTimeout(s.timer);
      bySession.clear();
    },
  };
}
