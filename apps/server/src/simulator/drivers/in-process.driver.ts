import type { BatchResult } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ingestionService } from '../../modules/ingestion/ingestion.service.js';
import type { OutboundBatch } from '../simulation.js';
import type { GatewayCredentials, SimulatorDriver } from './driver.js';

/**
 * Feeds the ingestion service directly (the demo inside `start`): the same validation,
 * storage and alert engine as HTTP and MQTT, without a network hop. The gateways belong to
 * the given organisation, so no credential check is needed.
 */
export function createInProcessDriver(ctx: AppContext, organizationId: string): SimulatorDriver {
  const ingestion = ingestionService(ctx);
  return {
    name: 'in-process',
    send(
      gateway: GatewayCredentials,
      batch: OutboundBatch & { batchId?: string },
    ): Promise<BatchResult> {
      return ingestion.ingest(
        { id: gateway.gatewayId, organizationId },
        {
          ...(batch.batchId !== undefined ? { batchId: batch.batchId } : {}),
          readings: batch.readings,
          environment: batch.environment,
          events: batch.events,
          ...(batch.pairings ? { pairings: batch.pairings } : {}),
        },
      );
    },
    async close() {},
  };
}
