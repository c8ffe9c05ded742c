import { z } from 'zod';
import { ORGANIZATION_KINDS } from '../organization-kinds.js';
import { id } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/**
 * A new organisation's setup checklist, in order (issue 35): each step is done when the data it
 * makes exists. `pairing`: a bracelet worn by a wearer; `recipients`: a group with someone to tell;
 * `testAlert`: a test alert whose notice went to a recipient and that staff confirmed.
 */
export const SETUP_STEPS = [
  'groups',
  'gateways',
  'bracelets',
  'wearers',
  'pairing',
  'recipients',
  'testAlert',
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** The rule a test alert's cause names (its notices and views say "test"). */
export const TEST_ALERT_RULE = 'test-alert';

/** GET /v2/client/{id}/setup: the checklist's progress, computed from the organisation's data. */
export const setupProgress = z.object({
  clientId: z.string(),
  name: z.string(),
  kind: z.enum(ORGANIZATION_KINDS),
  steps: z.array(
    z.object({
      step: z.enum(SETUP_STEPS),
      done: z.boolean(),
      /** How many of the step's things there are (groups, gateways, …; test alerts confirmed). */
      count: z.number().int(),
    }),
  ),
  /** Every step done. */
  done: z.boolean(),
  /** The latest test alert: whether notices left for it and whether it was confirmed. */
  lastTestAlert: z
    .object({
      id: z.string(),
      wearerId: z.string(),
      openedAt: z.string(),
      noticesSent: z.number().int(),
      confirmed: z.boolean(),
    })
    .nullable(),
});
export type SetupProgress = z.infer<typeof setupProgress>;

/** POST /v2/client/{id}/testAlert: a clearly marked test SOS for one wearer of the organisation. */
export const testAlertBody = z.strictObject({ uid: id });
export const testAlertResponse = z.object({ alertId: z.string(), wearerId: z.string() });

const setup = endpointsOf({ tags: ['Setup'], errors: BEARER_ERRORS });
const byId = z.object({ id });

export const getClientSetup = setup({
  method: 'GET',
  path: '/v2/client/{id}/setup',
  permission: 'organization:read',
  summary: "A new organisation's setup checklist with live progress",
  params: byId,
  responses: { 200: setupProgress },
});

export const sendTestAlert = setup({
  method: 'POST',
  path: '/v2/client/{id}/testAlert',
  permission: 'alert:test',
  summary:
    "Open a test alert (marked as a test) for a wearer: it goes to the group's recipients like an SOS and is confirmed like any alert",
  params: byId,
  body: testAlertBody,
  errors: [...BEARER_ERRORS, 409],
  responses: { 201: testAlertResponse },
});
