import {
  listPasskeys,
  registerPasskey,
  removePasskey,
  startPasskeyRegistration,
} from '@wearable/domain';
import { callResult, type CallInput } from '../../../lib/call';

// The signed-in person's own passkeys (/user/info).
export const fetchPasskeys = () => callResult(listPasskeys);
export const passkeyRegistrationOptions = () => callResult(startPasskeyRegistration);
export const savePasskey = (body: CallInput<typeof registerPasskey>['body']) =>
  callResult(registerPasskey, { body });
export const deletePasskey = (passkeyId: string) =>
  callResult(removePasskey, { params: { passkeyId } });
