import { ApiError } from '../../errors.js';

/**
 * Failed gateway authentications (unknown id, wrong credential) allowed per client address in a
 * burst, then this many per second. An unknown id costs a database look-up, so a flood of them
 * would slow every batch, SOS included; a known gateway with its right credential is answered
 * from the credential cache and never waits for this. Look-ups in flight hold a token each; one
 * that finds its gateway gives it back, so gateways of a site behind one address that all start at
 * once (after a server restart) wait their turn for a token instead of being refused.
 */
export const UNKNOWN_GATEWAY_BURST = 10;
export const UNKNOWN_GATEWAY_PER_SECOND = 1;
// Addresses remembered at most; a full table forgets the buckets that have refilled.
const MAX_ADDRESSES = 10_000;
// Look-ups waiting for a token at one address at most; more are refused at once.
const MAX_WAITING = 1_000;

export class GatewayThrottledError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(
      429,
      'GATEWAY_THROTTLED',
      `Too many unknown gateways or wrong credentials from this address; retry after ${retryAfterSeconds} s`,
      undefined,
      retryAfterSeconds,
    );
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per client address for gateway authentications that may fail. */
export class GatewayThrottle {
  private buckets = new Map<string, Bucket>();

  private bucketOf(address: string, now: number): Bucket {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.forgetFull(now);
      bucket = { tokens: UNKNOWN_GATEWAY_BURST, at: now };
      this.buckets.set(address, bucket);
    }
    bucket.tokens = Math.min(
      UNKNOWN_GATEWAY_BURST,
      bucket.tokens + ((now - bucket.at) / 1000) * UNKNOWN_GATEWAY_PER_SECOND,
    );
    bucket.at = now;
    return bucket;
  }

  private inFlight = new Map<string, number>();
  private waiting = new Map<string, (() => void)[]>();

  private refused(bucket: Bucket): GatewayThrottledError {
    return new GatewayThrottledError(
      Math.max(1, Math.ceil((1 - bucket.tokens) / UNKNOWN_GATEWAY_PER_SECOND)),
    );
  }

  /** Takes a token for a failed authentication (a wrong credential), or throws 429 when the address has none left. */
  take(address: string, now = Date.now()): void {
    const bucket = this.bucketOf(address, now);
    if (bucket.tokens < 1) throw this.refused(bucket);
    bucket.tokens -= 1;
  }

  /**
   * Takes a token before a look-up that may fail; settle() ends it. With no token left it waits while other
   * look-ups of the address are in flight (each may give its token back), and throws 429 once none is.
   */
  async reserve(address: string): Promise<void> {
    for (;;) {
      const bucket = this.bucketOf(address, Date.now());
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        this.inFlight.set(address, (this.inFlight.get(address) ?? 0) + 1);
        return;
      }
      const queue = this.waiting.get(address) ?? [];
      if ((this.inFlight.get(address) ?? 0) === 0 || queue.length >= MAX_WAITING)
        throw this.refused(bucket);
      this.waiting.set(address, queue);
      await new Promise<void>((resolve) => queue.push(resolve));
    }
  }

  /** Ends a reserved look-up: `found` gives the token back (a gateway with the right credential). */
  settle(address: string, found: boolean): void {
    const left = (this.inFlight.get(address) ?? 1) - 1;
    if (left > 0) this.inFlight.set(address, left);
    else this.inFlight.delete(address);
    if (found) {
      const bucket = this.buckets.get(address);
      if (bucket) bucket.tokens = Math.min(UNKNOWN_GATEWAY_BURST, bucket.tokens + 1);
    }
    // Every waiter looks again: a token came back, or the last look-up ended and they are refused.
    const queue = this.waiting.get(address);
    if (queue) {
      this.waiting.delete(address);
      for (const wake of queue) wake();
    }
  }

  private forgetFull(now: number): void {
    for (const [address, bucket] of this.buckets) {
      const refilled = bucket.tokens + ((now - bucket.at) / 1000) * UNKNOWN_GATEWAY_PER_SECOND;
      if (refilled >= UNKNOWN_GATEWAY_BURST) this.buckets.delete(address);
    }
    if (this.buckets.size >= MAX_ADDRESSES) this.buckets.clear();
  }
}
