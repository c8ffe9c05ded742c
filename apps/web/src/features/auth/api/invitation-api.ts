import type { InvitationPreview, RegisterBody, SignInResult } from '@wearable/domain';
import { api } from '../../../lib/api';

// Before there are tokens: the invitation link is the credential.
/** POST /v2/user/invitation/inspect: who invited whom, or why the link cannot be used. */
export const inspectInvitation = (token: string) =>
  api.post<InvitationPreview>('/v2/user/invitation/inspect', { token }, { auth: false });
/** POST /v2/user/register: completes the invitation and signs in. */
export const registerByInvitation = (body: RegisterBody) =>
  api.post<SignInResult>('/v2/user/register', body, { auth: false });
