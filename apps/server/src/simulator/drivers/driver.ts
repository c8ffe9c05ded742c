import type { BatchResult } from '@wearable/domain';
import type { OutboundBatch } from '../simulation.js';

/** A gateway's identity on the server. */
export interface GatewayCredentials {
  gatewayId: string;
  credential: string;
}

/** How simulated gateways reach the server: HTTP, MQTT or in-process ingestion. */
export interface SimulatorDriver {
  readonly name: string;
  /** Delivers one batch and returns the server's BatchResult (throws when it cannot). */
  send(
    gateway: GatewayCredentials,
    batch: OutboundBatch & { batchId?: string },
  ): Promise<BatchResult>;
  close(): Promise<void>;
}

/** The protocol's per-batch limits (contracts/gateway.ts). */
export const BATCH_LIMITS = { readings: 5000, environment: 1000, events: 1000 } as const;

/** Splits a batch into protocol-sized pieces, keeping the order within each list. */
export function splitBatch(batch: OutboundBatch): OutboundBatch[] {
  const pieces: OutboundBatch[] = [];
  for (let i = 0; ; i++) {
    const piece: OutboundBatch = {
      gatewayId: batch.gatewayId,
      readings: batch.readings.slice(i * BATCH_LIMITS.readings, (i + 1) * BATCH_LIMITS.readings),
      environment: batch.environment.slice(
        i * BATCH_LIMITS.environment,
        (i + 1) * BATCH_LIMITS.environment,
      ),
      events: batch.events.slice(i * BATCH_LIMITS.events, (i + 1) * BATCH_LIMITS.events),
    };
    if (piece.readings.length + piece.environment.length + piece.events.length === 0) break;
    pieces.push(piece);
  }
  return pieces;
}

/** The body a gateway sends: the batch without the simulator's own gateway field. */
export function toWireBatch(batch: OutboundBatch & { batchId?: string }) {
  const { gatewayId: _gatewayId, ...wire } = batch;
  return wire;
}

export class DriverError extends Error {
  constructor(
    message: string,
    /** False for refusals that a retry cannot fix (bad credential, bad request). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
