import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { gatewayParams } from './fleet-devices.js';

/**
 * Why a gateway's item was refused, grouped for staff (the text the gateway got is `detail`):
 * a serial the organisation does not know, a bracelet nobody wears, a time without its UTC
 * offset or outside the accepted window, a value out of range, anything else the schema refused.
 */
export const GATEWAY_REFUSAL_REASONS = [
  'UNKNOWN_BRACELET',
  'NO_WEARER',
  'TIME_OFFSET_MISSING',
  'TIME_OUT_OF_WINDOW',
  'VALUE_OUT_OF_RANGE',
  'INVALID_ITEM',
] as const;
export type GatewayRefusalReason = (typeof GATEWAY_REFUSAL_REASONS)[number];

/** A gateway whose last refusal is younger than this is "still refusing": the list's warning badge. */
export const GATEWAY_REFUSING_MS = 15 * 60_000;

/** Refusals of one reason and serial on one gateway. */
export const gatewayRefusal = z.object({
  reason: z.enum(GATEWAY_REFUSAL_REASONS),
  /** The item's serial number, normalised (upper case, trimmed); null when it named none. */
  serialNumber: z.string().nullable(),
  /** The list of the batch the last one was in (readings, events …). */
  list: z.string(),
  /** The reason as the gateway was told, for the last one. */
  detail: z.string(),
  count: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
  /**
   * UNKNOWN_BRACELET: a registered serial of the organisation this one nearly is (one or two
   * characters off, or the same without separators), "did you mean …?"; else null.
   */
  suggestion: z.string().nullable(),
});
export type GatewayRefusal = z.infer<typeof gatewayRefusal>;

export const gatewayRefusalsQuery = z.object({
  /** How far back, in minutes (default a day, at most a week). */
  withinMinutes: z.coerce.number().int().min(1).max(10_080).default(1_440),
});

export const gatewayRefusalsResponse = z.object({
  gatewayId: z.string(),
  withinMinutes: z.number().int(),
  /** Latest first. */
  refusals: z.array(gatewayRefusal),
});
export type GatewayRefusalsResponse = z.infer<typeof gatewayRefusalsResponse>;

const refusals = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });

export const listGatewayRefusals = refusals({
  method: 'GET',
  path: '/v2/gateway/{gatewayId}/refusals',
  permission: 'gateway:read',
  summary:
    'What the gateway sent lately that was refused, grouped by reason and serial with count and last time (all kinds of gateway); an unknown serial close to a registered one names it',
  params: gatewayParams,
  query: gatewayRefusalsQuery,
  responses: { 200: gatewayRefusalsResponse },
});

/**
 * The 401 codes of the gateway protocol: a request without `Authorization`, one with another
 * scheme (a `Bearer` token where `Gateway <id>:<credential>` belongs), and a gateway id or
 * credential that does not match (`GATEWAY_UNAUTHORIZED`, the signed-out answer).
 */
export const GATEWAY_AUTH_ERROR_CODES = {
  missing: 'GATEWAY_AUTHORIZATION_MISSING',
  wrongScheme: 'GATEWAY_AUTHORIZATION_SCHEME',
  malformed: 'GATEWAY_AUTHORIZATION_MALFORMED',
  signedOut: 'GATEWAY_UNAUTHORIZED',
} as const;
