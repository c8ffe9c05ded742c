import { gatewayBatch, type BatchResult } from '@wearable/domain';
import type { AppContext } from '../context.js';
import type { AuthenticatedGateway } from '../modules/ingestion/gateway-auth.js';
import { ingestionService } from '../modules/ingestion/ingestion.service.js';

/** What goes back on gateways/<id>/results: the BatchResult, or why the whole batch was refused. */
export type BatchReply =
  | BatchResult
  | { batchId?: string; error: { code: 'INVALID_JSON' | 'VALIDATION_FAILED'; message: string } };

/**
 * Handles one MQTT batch message. A malformed message is answered (and acknowledged: sending
 * it again would not help); a database failure throws, so the caller does not acknowledge and
 * the gateway's QoS 1 redelivery retries it.
 */
export async function handleBatchMessage(
  ctx: AppContext,
  gateway: AuthenticatedGateway,
  payload: Buffer,
): Promise<BatchReply> {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch (err) {
    return {
      error: { code: 'INVALID_JSON', message: `payload is not JSON: ${(err as Error).message}` },
    };
  }
  const parsed = gatewayBatch.safeParse(json);
  if (!parsed.success) {
    const batchId =
      json && typeof json === 'object' && 'batchId' in json && typeof json.batchId === 'string'
        ? json.batchId.slice(0, 128)
        : undefined;
    const message = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'batch'}: ${i.message}`)
      .join('; ');
    return { ...(batchId ? { batchId } : {}), error: { code: 'VALIDATION_FAILED', message } };
  }
  return ingestionService(ctx).ingest(gateway, parsed.data);
}
