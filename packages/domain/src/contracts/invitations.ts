import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../field-rules.js';
import { ROLES } from '../roles.js';
import { id } from './common.js';
import { CURRENT_TERMS_VERSION } from './user.js';
import { signInResult } from './sign-in-factors.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { MESSAGE_LOCALES } from './sign-in-methods.js';

/** An invitation lasts this long; then its link shows "expired" and the inviter resends. */
export const INVITATION_DAYS = 7;
export { MIN_PASSWORD_LENGTH } from '../field-rules.js';

/** Roles an invitation can carry: every role but PERSONAL_SELF (a wearer who signs in is set up with the wearer). */
export const INVITABLE_ROLES = ROLES.filter((r) => r !== 'PERSONAL_SELF');

/** The link's secret as it travels in `/verify#invite=<token>` (base64url of 32 bytes). */
const invitationToken = z.string().min(16).max(128);

/**
 * POST /v2/user/invite. Staff of an organisation (`clientId`, the inviter's own by default; groups only
 * for ORGANIZATION_GROUP, at least one), platform staff (no organisation), or a family member (PERSONAL,
 * for one `wearerId`). The rules below are the server's, so the form checks exactly what the server does.
 */
export const inviteBody = z
  .object({
    email: z.email().max(254),
    role: z.enum(ROLES),
    clientId: id.optional(),
    groupIds: z.array(id).max(100).default([]),
    wearerId: id.optional(),
    /** How the mail greets the invitee (optional). */
    name: z.string().trim().min(1).max(100).optional(),
    /** The mail's language (the inviter's choice; Japanese by default). */
    locale: z.enum(MESSAGE_LOCALES).optional(),
  })
  .superRefine((body, issue) => {
    const problem = (path: string, message: string) =>
      issue.addIssue({ code: 'custom', path: [path], message });
    if (body.role === 'PERSONAL_SELF')
      problem('role', 'a wearer who signs in is not invited; invite PERSONAL for a family member');
    if (body.role === 'ORGANIZATION_GROUP' && body.groupIds.length === 0)
      problem('groupIds', 'a group manager needs at least one group');
    if (body.role !== 'ORGANIZATION_GROUP' && body.groupIds.length > 0)
      problem('groupIds', 'only a group manager (ORGANIZATION_GROUP) has groups');
    if (body.role === 'PERSONAL' && !body.wearerId)
      problem('wearerId', 'a family member is invited for one wearer');
    if (body.role !== 'PERSONAL' && body.wearerId)
      problem('wearerId', 'only a family member (PERSONAL) is invited for a wearer');
    if (
      (body.role === 'ALL_OWNER' || body.role === 'ALL_GENERAL' || body.role === 'PERSONAL') &&
      body.clientId
    ) {
      problem('clientId', 'platform staff and family members belong to no organisation');
    }
  });
export type InviteBody = z.input<typeof inviteBody>;

/** A pending invitation as the staff list shows it. */
export const pendingInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  wearerId: z.string().nullable(),
  invitedBy: z.string().nullable(),
  expiresAt: z.iso.datetime({ offset: true }),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof pendingInvitation>;

/** POST /v2/user/invite and /v2/user/invitation/resend: what was sent (never the token). */
export const inviteResponse = pendingInvitation;

export const resendInvitationBody = z.object({ invitationId: id });

/** POST /v2/user/invitation/inspect (public): what the /verify page shows before registration. */
export const inspectInvitationBody = z.object({ token: invitationToken });
export const invitationPreview = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  organizationName: z.string().nullable(),
  inviterName: z.string().nullable(),
  wearerName: z.string().nullable(),
  /** The name the inviter typed for the invitee (pre-fills the registration form); null if none. */
  name: z.string().nullable().optional(),
  /** The invitation's language (its mail's): the registration page opens in it. */
  locale: z.enum(MESSAGE_LOCALES).optional(),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;

/** Why a link cannot be used; each has its own page on /verify. */
export const INVITATION_ERRORS = [
  'INVITATION_UNKNOWN',
  'INVITATION_USED',
  'INVITATION_EXPIRED',
  'INVITATION_REPLACED',
  'INVITATION_OTHER_ADDRESS',
] as const;

/** POST /v2/user/register (public): completes an invitation and signs the person in. */
export const registerBody = z.object({
  token: invitationToken,
  /** The address the invitation was sent to (shown by inspect); another address is refused. */
  email: z.email().max(254),
  name: z.string().trim().min(1).max(100),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256),
  agreedToTerms: z.literal(true, { message: 'the terms of use must be accepted' }),
  termsVersion: z.string().min(1).max(32).default(CURRENT_TERMS_VERSION),
  locale: z.enum(MESSAGE_LOCALES).optional(),
});
export type RegisterBody = z.input<typeof registerBody>;

const invitation = endpointsOf({ tags: ['Identity'], errors: [...BEARER_ERRORS, 409] });

// family:manage is the widest permission an invitation needs (staff roles need member:invite, checked
// by the service on the organisation); a role without it never invites anyone.
export const inviteMember = invitation({
  method: 'POST',
  path: '/v2/user/invite',
  permission: 'family:manage',
  summary:
    'Invite a staff member, platform staff or a family member (a role you may grant); mails a 7-day link',
  body: inviteBody,
  responses: { 201: inviteResponse },
});

export const resendInvitation = invitation({
  method: 'POST',
  path: '/v2/user/invitation/resend',
  permission: 'family:manage',
  summary: 'Send a live invitation again with a new link (the old link stops working)',
  body: resendInvitationBody,
  responses: { 201: inviteResponse },
});

/** Before there are tokens: the invitation link is the credential. */
export const inspectInvitation = invitation({
  method: 'POST',
  path: '/v2/user/invitation/inspect',
  permission: 'public',
  summary: 'Who invited whom, for the registration page (or why the link cannot be used)',
  body: inspectInvitationBody,
  errors: [400, 404, 410],
  responses: { 200: invitationPreview },
});

export const registerByInvitation = invitation({
  method: 'POST',
  path: '/v2/user/register',
  permission: 'public',
  summary: 'Complete an invitation (name, password, terms) and sign in',
  body: registerBody,
  errors: [400, 404, 409, 410],
  responses: { 200: signInResult },
});
