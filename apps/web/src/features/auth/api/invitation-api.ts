import {
  bareInspectInvitation,
  bareRegisterByInvitation,
  type RegisterBody,
} from '@wearable/domain';
import { callResult } from '../../../lib/call';

// Before there are tokens: the invitation link is the credential.
/** Who invited whom, or why the link cannot be used. */
export const inspectInvitation = (token: string) =>
  callResult(bareInspectInvitation, { body: { token } });
/** Completes the invitation and signs in. */
export const registerByInvitation = (body: RegisterBody) =>
  callResult(bareRegisterByInvitation, { body });
