import { z } from 'zod';
import { ON_CALL_MEMBERS_MAX, onCallRota } from '../on-call.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

const id = z.string().min(1).max(64);
/** Longest an override may last (days): longer is a change of the rota. */
export const ON_CALL_OVERRIDE_MAX_DAYS = 92;
export const ON_CALL_NOTE_MAX = 200;

export const onCallParams = z.object({ groupId: id });
export const onCallOverrideParams = z.object({ groupId: id, overrideId: id });

const person = z.object({ userId: z.string(), name: z.string() });
/** Who is on call over one period. */
export const onCallSlotView = z.object({
  people: z.array(person),
  from: z.string(),
  until: z.string(),
  /** rota, holiday (the weekend and holiday turn), shift, override, or none (nobody). */
  source: z.enum(['rota', 'holiday', 'shift', 'override', 'none']),
});
export type OnCallSlotView = z.infer<typeof onCallSlotView>;

export const onCallOverrideView = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type OnCallOverrideView = z.infer<typeof onCallOverrideView>;

/** GET /v2/group/{groupId}/onCall: the rota, its overrides to come, and who is on call now and next. */
export const onCallResponse = z.object({
  groupId: z.string(),
  groupName: z.string(),
  /** The organisation's zone: the rota's times and dates are read in it. */
  timeZone: z.string(),
  publicHolidaysAsWeekdays: z.boolean(),
  rota: onCallRota.nullable(),
  /** Overrides not yet ended, soonest first. */
  overrides: z.array(onCallOverrideView),
  now: onCallSlotView,
  next: onCallSlotView,
  /** Staff who may be put on the rota (the organisation's staff who reach the group), by name. */
  candidates: z.array(person),
});
export type OnCallResponse = z.infer<typeof onCallResponse>;

/** PUT /v2/group/{groupId}/onCall/rota: replaces the rota (null: the group has none). */
export const onCallRotaBody = z.object({ rota: onCallRota.nullable() });
export type OnCallRotaBody = z.infer<typeof onCallRotaBody>;

/** POST /v2/group/{groupId}/onCall/overrides: someone covers a period instead of the rota. */
export const onCallOverrideBody = z
  .object({
    userId: id,
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
    note: z.string().trim().max(ON_CALL_NOTE_MAX).optional(),
  })
  .superRefine((b, ctx) => {
    const from = Date.parse(b.startsAt);
    const to = Date.parse(b.endsAt);
    if (!(to > from))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    else if (to - from > ON_CALL_OVERRIDE_MAX_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['endsAt'],
        message: `an override lasts at most ${ON_CALL_OVERRIDE_MAX_DAYS} days`,
      });
  });
export type OnCallOverrideBody = z.infer<typeof onCallOverrideBody>;

const onCall = endpointsOf({ tags: ['Notifications'], errors: BEARER_ERRORS });

export const getOnCall = onCall({
  method: 'GET',
  path: '/v2/group/{groupId}/onCall',
  permission: 'noticeSettings:read',
  summary: "A group's on-call rota and overrides, and who is on call now and next",
  params: onCallParams,
  responses: { 200: onCallResponse },
});

export const putOnCallRota = onCall({
  method: 'PUT',
  path: '/v2/group/{groupId}/onCall/rota',
  permission: 'noticeSettings:update',
  summary: `Replace a group's on-call rota (daily, weekly or shifts; at most ${ON_CALL_MEMBERS_MAX} people), or remove it with null`,
  params: onCallParams,
  body: onCallRotaBody,
  responses: { 200: onCallResponse },
});

export const addOnCallOverride = onCall({
  method: 'POST',
  path: '/v2/group/{groupId}/onCall/overrides',
  permission: 'noticeSettings:update',
  summary:
    'Someone covers a period instead of the rota (the newest override wins where two overlap)',
  params: onCallParams,
  body: onCallOverrideBody,
  responses: { 201: onCallResponse },
});

export const removeOnCallOverride = onCall({
  method: 'DELETE',
  path: '/v2/group/{groupId}/onCall/overrides/{overrideId}',
  permission: 'noticeSettings:update',
  summary: 'Remove an override',
  params: onCallOverrideParams,
  responses: { 200: onCallResponse },
});
