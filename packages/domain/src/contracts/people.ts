import { z } from 'zod';
import { ROLES } from '../roles.js';
import { id, isoInstant } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/** A calendar date (YYYY-MM-DD) that exists, between 1900 and today's year: a wearer's birth date. */
export const birthDate = z.iso
  .date()
  .refine((s) => s >= '1900-01-01' && s <= `${new Date().getUTCFullYear()}-12-31`, {
    message: 'must be a date between 1900-01-01 and this year',
  });
/** A lone UTF-16 surrogate has no UTF-8 form: the database would refuse it (a 500), so it is a 400 here. */
const personName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/\p{Cs}/u.test(s), { message: 'must be valid Unicode text' });
/** How the name is read (furigana, e.g. やまだ たろう): lists sort by it. Empty text: none. */
export const nameReading = z
  .string()
  .trim()
  .max(100)
  .refine((s) => !/\p{Cs}/u.test(s), { message: 'must be valid Unicode text' })
  .transform((s) => (s === '' ? null : s));

/** What a person is to the organisation: a monitored wearer, a family member (PERSONAL), or staff. */
export const PERSON_KINDS = ['WEARER', 'FAMILY', 'STAFF'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];

/** GET /v2/user/{uid}: a person the caller reaches. */
export const person = z.object({
  uid: z.string(),
  kind: z.enum(PERSON_KINDS),
  role: z.enum(ROLES).nullable(),
  name: z.string(),
  /** How the name is read (furigana); null when not given. */
  nameReading: z.string().nullable(),
  clientId: z.string().nullable(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  birthDate: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  /** For a family member: the wearers they are linked to that the caller reaches. */
  linkedWearers: z.array(z.object({ uid: z.string(), name: z.string() })),
});
export type Person = z.infer<typeof person>;
export const personParams = z.object({ uid: id });

/** POST /v2/user/wearer: a new wearer (a person monitored, no console account). */
export const createWearerRequest = z.strictObject({
  clientId: id,
  name: personName,
  nameReading: nameReading.nullable().optional(),
  birthDate,
  /** null or absent: in no group (organisation-wide staff only). */
  groupId: id.nullable().optional(),
});
export type CreateWearerRequest = z.input<typeof createWearerRequest>;

/**
 * PATCH /v3/user/update: edit a wearer (uid given: name, birth date, group) or one's own profile
 * (uid absent or one's own: name). At least one field.
 */
export const updateUserRequest = z
  .strictObject({
    uid: id.optional(),
    name: personName.optional(),
    /** A wearer's reading of the name; null or empty text removes it. */
    nameReading: nameReading.nullable().optional(),
    birthDate: birthDate.optional(),
    groupId: id.nullable().optional(),
  })
  .refine(
    (b) =>
      b.name !== undefined ||
      b.nameReading !== undefined ||
      b.birthDate !== undefined ||
      b.groupId !== undefined,
    {
      message: 'name, nameReading, birthDate or groupId is required',
      path: ['name'],
    },
  );
export type UpdateUserRequest = z.input<typeof updateUserRequest>;

/** DELETE /v2/user/{uid}/phoneNumber: the organisation the person is removed from the phone list of. */
export const removePhoneRequest = z.strictObject({ clientId: id });

/** POST /v2/user/device/link/user and /unlink/user: a family member (PERSONAL) and a wearer. */
export const familyLinkRequest = z.strictObject({ uid: id, wearerUid: id });
export const familyLinkResponse = z.object({
  uid: z.string(),
  wearerUid: z.string(),
  linked: z.boolean(),
});

/** GET /v2/user/lookup/associatedWithWearables: family members of the wearers the caller reaches. */
export const associatedQuery = z.object({ clientId: id.optional(), groupId: id.optional() });
export const familyMember = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  wearers: z.array(z.object({ uid: z.string(), name: z.string() })),
});
export type FamilyMember = z.infer<typeof familyMember>;
export const associatedResponse = z.object({ users: z.array(familyMember) });

export const personOkResponse = z.object({ ok: z.literal(true) });

/** GET /v2/audit: who changed what, when, before and after. */
export const AUDIT_KINDS = [
  'wearer.create',
  'wearer.update',
  'wearer.remove',
  'user.update',
  'user.phoneRemove',
  'family.link',
  'family.unlink',
  'alertSettings.update',
  'noticeSettings.update',
  'member.invite',
  'member.register',
  'member.roleChange',
  'member.remove',
  'member.groups',
  'group.change',
  'gateway.change',
  'signInSettings.update',
  'user.phoneChange',
  'user.emailChange',
  'user.passwordChange',
  'user.passwordReset',
  'heatProcedure.update',
  'alert.snooze',
  'apiToken.create',
  'apiToken.revoke',
  'apiToken.use',
  'alertPolicy.update',
  'webhook.change',
  'chatChannel.change',
  'chatLink.change',
  'site.change',
  'placePrivacy.update',
  'person.erase',
  'onCall.change',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const auditQuery = z.object({
  clientId: id.optional(),
  actorId: id.optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;
export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  clientId: z.string().nullable(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  kind: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditResponse = z.object({
  entries: z.array(auditEntry),
  total: z.number().int(),
  page: z.number().int(),
});
export type AuditResponse = z.infer<typeof auditResponse>;

const people = endpointsOf({ tags: ['People'], errors: BEARER_ERRORS });

export const createWearer = people({
  method: 'POST',
  path: '/v2/user/wearer',
  permission: 'wearer:manage',
  summary: 'Add a wearer (name, birth date, group)',
  body: createWearerRequest,
  responses: { 201: person },
});

export const removeWearer = people({
  method: 'DELETE',
  path: '/v2/user/wearer/{uid}',
  permission: 'wearer:manage',
  summary:
    'Remove a wearer; their readings and alerts stay with the organisation, the bracelet is freed',
  params: personParams,
  responses: { 200: personOkResponse },
});

export const listFamilyOfWearers = people({
  method: 'GET',
  path: '/v2/user/lookup/associatedWithWearables',
  permission: 'member:read',
  summary: 'Family members linked to the wearers the caller reaches',
  query: associatedQuery,
  responses: { 200: associatedResponse },
});

export const getPerson = people({
  method: 'GET',
  path: '/v2/user/{uid}',
  permission: 'wearer:read',
  summary: 'A person the caller reaches: wearer, family member or staff',
  params: personParams,
  responses: { 200: person },
});

export const updatePerson = people({
  method: 'PATCH',
  path: '/v3/user/update',
  permission: 'self:update',
  summary: "Edit a wearer (uid: name, birth date, group) or one's own name",
  body: updateUserRequest,
  responses: { 200: person },
});

export const removePhoneNumber = people({
  method: 'DELETE',
  path: '/v2/user/{uid}/phoneNumber',
  permission: 'self:update',
  summary: "Remove a person's phone number (in the organisation clientId)",
  params: personParams,
  body: removePhoneRequest,
  responses: { 200: personOkResponse },
});

export const linkFamilyMember = people({
  method: 'POST',
  path: '/v2/user/device/link/user',
  permission: 'family:manage',
  summary: 'Link a family member (PERSONAL user) to a wearer',
  body: familyLinkRequest,
  responses: { 200: familyLinkResponse },
});

export const unlinkFamilyMember = people({
  method: 'POST',
  path: '/v2/user/device/unlink/user',
  permission: 'family:manage',
  summary: 'Unlink a family member from a wearer',
  body: familyLinkRequest,
  responses: { 200: familyLinkResponse },
});

export const listAuditEntries = endpointsOf({ tags: ['Audit'], errors: BEARER_ERRORS })({
  method: 'GET',
  path: '/v2/audit',
  permission: 'audit:read',
  summary:
    'Changes to people, roles, groups, sign-in and alert settings: who, when, before and after (newest first, paged)',
  query: auditQuery,
  responses: { 200: auditResponse },
});
