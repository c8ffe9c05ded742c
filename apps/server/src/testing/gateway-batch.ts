import type { GatewayRecord } from './factories.js';
import type { TestApp } from './test-app.js';

/** POST /gateway/v1/batches as this gateway (its plaintext credential), through the real app. */
export const postBatch = (
  t: TestApp,
  gateway: Pick<GatewayRecord, 'id' | 'credential'>,
  payload: object,
) =>
  t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${gateway.id}:${gateway.credential}` },
    payload,
  });
