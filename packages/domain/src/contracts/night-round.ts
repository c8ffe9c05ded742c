import { z } from 'zod';
import { ALERT_LEVELS, ALERT_TYPES } from '../alerts.js';
import { ROUND_STATES } from '../night-round.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { groupParams } from './notifications.js';

/** A night, dated by the day it started (docs/sleep-nights.md): `YYYY-MM-DD`. */
export const nightDate = z
  .string()
  .regex(
    /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
    'must be a date YYYY-MM-DD',
  )
  // Runs after a failed pattern too (zod 4): an unparsable date must be a refusal, never a RangeError.
  .refine(
    (s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
    },
    {
      message: 'must be a date that exists',
    },
  );

/** GET …/nightRound and …/nightRoundCsv: the night (default: the one under way now, in the organisation's zone). */
export const nightRoundQuery = z.object({ night: nightDate.optional() });
export type NightRoundQuery = z.infer<typeof nightRoundQuery>;

/** "Looked at resident X": who (the signed-in staff member), when, and an optional note. */
export const roundMarkView = z.object({
  id: z.string(),
  uid: z.string(),
  night: z.string(),
  at: z.string(),
  by: z.object({ uid: z.string(), name: z.string() }),
  note: z.string().nullable(),
});
export type RoundMarkView = z.infer<typeof roundMarkView>;

export const ROUND_NOTE_MAX = 500;
export const roundMarkBody = z.strictObject({
  uid: z.string().min(1).max(64),
  note: z.string().trim().max(ROUND_NOTE_MAX).optional(),
});
export type RoundMarkBody = z.infer<typeof roundMarkBody>;

export const roundWearer = z.object({
  uid: z.string(),
  name: z.string(),
  nameReading: z.string().nullable(),
  state: z.enum(ROUND_STATES),
  /** When the state began, as far as the last 12 hours tell (null: not known). */
  since: z.string().nullable(),
  heartRate: z.number().nullable(),
  heartRateAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** The newest alert of the resident (any status), null if none. */
  lastAlert: z
    .object({
      id: z.string(),
      type: z.enum(ALERT_TYPES),
      level: z.enum(ALERT_LEVELS),
      status: z.enum(['OPEN', 'CLOSED']),
      openedAt: z.string(),
    })
    .nullable(),
  /** Levels of the open alerts: an EMERGENCY or CRITICAL one puts the resident first. */
  openAlertLevels: z.array(z.enum(ALERT_LEVELS)),
  /** This night's marks, newest first. */
  marks: z.array(roundMarkView),
});
export type RoundWearer = z.infer<typeof roundWearer>;

export const nightRoundSheet = z.object({
  groupId: z.string(),
  groupName: z.string(),
  clientId: z.string(),
  timeZone: z.string(),
  night: z.string(),
  generatedAt: z.string(),
  /** In the round's order: what needs a visit first (compareRound). */
  wearers: z.array(roundWearer),
});
export type NightRoundSheet = z.infer<typeof nightRoundSheet>;

/** The columns of the night's alerts CSV, in order (docs/night-round.md). */
export const NIGHT_ALERTS_CSV_COLUMNS = [
  'alert_id',
  'resident_id',
  'resident_name',
  'group_name',
  'type',
  'level',
  'status',
  'opened_at',
  'confirmed_at',
  'confirmed_by',
  'confirm_reason',
  'confirm_note',
  'minutes_to_confirm',
  'closed_at',
  'close_reason',
] as const;

const round = endpointsOf({ tags: ['Night round'], errors: BEARER_ERRORS });

export const getNightRound = round({
  method: 'GET',
  path: '/v2/group/{groupId}/nightRound',
  permission: 'group:read',
  summary:
    "A group's round sheet: every resident's state now (asleep, awake, up, not worn, not heard), since when, heart rate, last alert and the night's marks, what needs a visit first",
  params: groupParams,
  query: nightRoundQuery,
  responses: { 200: nightRoundSheet },
});

export const markNightRound = round({
  method: 'POST',
  path: '/v2/group/{groupId}/nightRound/marks',
  permission: 'nightRound:mark',
  summary:
    'Record that the signed-in staff member looked at a resident now, on the night under way',
  params: groupParams,
  body: roundMarkBody,
  responses: { 201: roundMarkView },
});

export const getNightRoundCsv = round({
  method: 'GET',
  path: '/v2/group/{groupId}/nightRoundCsv',
  permission: 'group:read',
  summary:
    "The night's alerts of the group with their response and outcome, as CSV for care-record software (UTF-8 with BOM)",
  params: groupParams,
  query: nightRoundQuery,
  responses: { 200: z.string() },
  raw: true,
  produces: ['text/csv'],
});
