import { ApiError } from '../../errors.js';

/**
 * Failed gateway authentications (unknown id, wrong credential) allowed per client address in a
 * burst, then this many per second. An unknown id costs a database look-up, so a flood of them
 * would slow every batch, SOS included; a known gateway with its right credential is answered
 * from the credential cache and never waits for this.
 */
export const UNKNOWN_GATEWAY_BURST = 10;
export const UNKNOWN_GATEWAY_PER_SECOND = 1;
// Addresses remembered at most; a full table forgets the buckets that have refilled.
const MAX_ADDRESSES = 10_000;

export class GatewayThrottledError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      'GATEWAY_THROTTLED',
      `Too many unknown gateways or wrong credentials from this address; retry after ${retryAfterSeconds} s`,
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

  /** Takes a token before a look-up that may fail, or throws 429 when the address has none left. */
  take(address: string, now = Date.now()): void {
    const bucket = this.bucketOf(address, now);
    if (bucket.tokens < 1) {
      throw new GatewayThrottledError(
        Math.max(1, Math.ceil((1 - bucket.tokens) / UNKNOWN_GATEWAY_PER_SECOND)),
      );
    }
    bucket.tokens -= 1;
  }

  /** Gives the token back: the look-up found a gateway with the right credential. */
  refund(address: string): void {
    const bucket = this.buckets.get(address);
    if (bucket) bucket.tokens = Math.min(UNKNOWN_GATEWAY_BURST, bucket.tokens + 1);
  }

  private forgetFull(now: number): void {
    for (const [address, bucket] of this.buckets) {
      const refilled = bucket.tokens + ((now - bucket.at) / 1000) * UNKNOWN_GATEWAY_PER_SECOND;
      if (refilled >= UNKNOWN_GATEWAY_BURST) this.buckets.delete(address);
    }
    if (this.buckets.size >= MAX_ADDRESSES) this.buckets.clear();
  }
}
