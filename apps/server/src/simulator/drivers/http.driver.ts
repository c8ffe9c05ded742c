import { batchResult, type BatchResult } from '@wearable/domain';
import type { OutboundBatch } from '../simulation.js';
import {
  DriverError,
  type GatewayCredentials,
  type SimulatorDriver,
  toWireBatch,
} from './driver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Gateways over HTTP: POST /gateway/v1/batches with `Authorization: Gateway id:credential`.
 * Network errors and 5xx are retried (ingestion is idempotent, so a retry never doubles data);
 * a 4xx is the server refusing the batch and is not.
 */
export function createHttpDriver(
  baseUrl: string,
  opts: { attempts?: number } = {},
): SimulatorDriver {
  const url = new URL('/gateway/v1/batches', baseUrl).toString();
  const attempts = opts.attempts ?? 4;
  return {
    name: 'http',
    async send(
      gateway: GatewayCredentials,
      batch: OutboundBatch & { batchId?: string },
    ): Promise<BatchResult> {
      let lastError: DriverError | undefined;
      for (let attempt = 0; attempt < attempts; attempt++) {
        if (attempt > 0) await sleep(250 * 2 ** attempt);
        let response: Response;
        try {
          response = await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Gateway ${gateway.gatewayId}:${gateway.credential}`,
            },
            body: JSON.stringify(toWireBatch(batch)),
          });
        } catch (err) {
          lastError = new DriverError(`POST ${url} failed: ${(err as Error).message}`, true);
          continue;
        }
        const text = await response.text();
        if (response.ok) return batchResult.parse(JSON.parse(text));
        lastError = new DriverError(
          `POST ${url} for ${gateway.gatewayId}: ${response.status} ${text.slice(0, 300)}`,
          response.status >= 500 || response.status === 429,
        );
        if (!lastError.retryable) throw lastError;
      }
      throw lastError ?? new DriverError('no attempt made', false);
    },
    async close() {},
  };
}
