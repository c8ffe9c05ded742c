import { z } from 'zod';
import { id, isoInstant } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/** What a read showed (docs/access-log.md); mirrors the server's ACCESS_WHATS. */
export const ACCESS_LOG_WHATS = [
  'records',
  'history',
  'csv',
  'fhir',
  'monthly-report',
  'alerts',
  'access-log',
  'data-export',
  'handover',
  'night-round',
] as const;
export type AccessLogWhat = (typeof ACCESS_LOG_WHATS)[number];

/** GET /v2/accessLog: who read whose data (owners: their organisation; platform owners: one or all). */
export const accessLogQuery = z.object({
  clientId: id.optional(),
  /** Reads that named this person. */
  personId: id.optional(),
  /** Reads by this staff member (or API token owner). */
  actorId: id.optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AccessLogQuery = z.input<typeof accessLogQuery>;

export const accessLogEntry = z.object({
  clientId: z.string(),
  seq: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  /** Set when an API token read it (actorId: its owner). */
  apiTokenId: z.string().nullable(),
  /** The people read; name null once a person was erased (docs/privacy.md). */
  people: z.array(z.object({ uid: z.string(), name: z.string().nullable() })),
  what: z.string(),
  ip: z.string().nullable(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntry>;

export const accessLogResponse = z.object({
  entries: z.array(accessLogEntry),
  total: z.number().int(),
  page: z.number().int(),
});
export type AccessLogResponse = z.infer<typeof accessLogResponse>;

const accessLog = endpointsOf({ tags: ['Access log'], errors: BEARER_ERRORS });

export const listAccessLog = accessLog({
  method: 'GET',
  path: '/v2/accessLog',
  permission: 'accessLog:read',
  summary:
    'Who read whose data, when and from where (newest first, paged); reading it is itself recorded',
  query: accessLogQuery,
  responses: { 200: accessLogResponse },
});

export const listAccessLogCsv = accessLog({
  method: 'GET',
  path: '/v2/accessLogCsv',
  permission: 'accessLog:read',
  summary: 'The access log as UTF-8 CSV with BOM (same filters, up to 10,000 rows)',
  query: accessLogQuery.omit({ page: true, pageSize: true }),
  responses: { 200: z.string() },
  produces: ['text/csv'],
  raw: true,
});
