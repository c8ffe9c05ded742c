import { ApiError } from '../../errors.js';
import type { AuthRepository } from './auth.repository.js';

/**
 * Counts requests per key (a typed address, a number, a client address) in a window, on the
 * sign-in failure table: keys name what was typed, never an account, so a 429 says nothing of
 * whether one exists. Each request is counted before it is served, in one atomic UPSERT, so
 * concurrent requests cannot all slip under the limit.
 */
export function requestLimits(repo: AuthRepository, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  return {
    /** Counts one request against every key; 429 when any key is now beyond its maximum. */
    async take(limits: Array<[key: string, max: number]>, now: Date): Promise<void> {
      const cutoff = new Date(now.getTime() - windowMs);
      const counts = await repo.reserveAttempt(
        limits.map(([key]) => key),
        now,
        cutoff,
      );
      let retryMs = 0;
      for (const w of counts) {
        const max = limits.find(([key]) => key === w.key)?.[1] ?? Infinity;
        const endsAt = new Date(w.windowStart).getTime() + windowMs;
        if (w.failures > max && endsAt > now.getTime())
          retryMs = Math.max(retryMs, endsAt - now.getTime());
      }
      if (retryMs > 0) {
        const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
        throw new ApiError(
          429,
          'TOO_MANY_ATTEMPTS',
          `Too many attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        );
      }
    },

    /** Gives back a request that turned out right. */
    release: (key: string) => repo.releaseAttempt(key),

    /** Forgets the password failures counted for a typed address (its owner proved the mailbox). */
    clearPasswordFailures: (email: string) => repo.clearFailuresOfEmail(email),
  };
}

/** X-Forwarded-For is the client's to write: real addresses are at most 45 characters. */
export const clientKey = (prefix: string, address: string) =>
  `${prefix}:ip:${address.slice(0, 64)}`;
