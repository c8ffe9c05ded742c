import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { clientParams } from './alert-settings.js';

/** A gateway silence alert (DEVICE_STATUS) still open: the gateway sent nothing for its expected interval. */
export const gatewaySilenceView = z.object({
  id: z.string(),
  gatewayId: z.string(),
  gatewayName: z.string(),
  groupId: z.string().nullable(),
  /** Wearers whose bracelets report through it (when it went silent). */
  wearerCount: z.number().int(),
  /** Its last batch, and when its silence alert opened. */
  lastHeardAt: z.string(),
  openedAt: z.string(),
});
export type GatewaySilenceView = z.infer<typeof gatewaySilenceView>;

/**
 * GET /v2/client/{clientId}/ingestionStatus: whether data still arrives. `stoppedSince`: when the
 * organisation's gateways were last heard, once none of them has been for INGESTION_STOPPED_AFTER_MS
 * (null while data arrives, and for an organisation with no gateway heard within the last day).
 */
export const ingestionStatusResponse = z.object({
  clientId: z.string(),
  stoppedSince: z.string().nullable(),
  /** The open gateway silences of the groups the caller sees, oldest first. */
  silentGateways: z.array(gatewaySilenceView),
});
export type IngestionStatusResponse = z.infer<typeof ingestionStatusResponse>;

export const getIngestionStatus = endpointsOf({ tags: ['Gateways'], errors: BEARER_ERRORS })({
  method: 'GET',
  path: '/v2/client/{clientId}/ingestionStatus',
  permission: 'gateway:read',
  summary:
    "Whether the organisation's data still arrives: stopped since when, and its silent gateways",
  params: clientParams,
  responses: { 200: ingestionStatusResponse },
});
