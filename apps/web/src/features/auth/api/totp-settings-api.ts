import { disableTotp, enableTotp, getTotpStatus, setupTotp } from '@wearable/domain';
import { callResult } from '../../../lib/call';

// The signed-in person's own second factor (/user/info).
export const fetchTotpStatus = () => callResult(getTotpStatus);
export const startTotpSetup = () => callResult(setupTotp);
export const turnTotpOn = (body: { code: string }) => callResult(enableTotp, { body });
export const turnTotpOff = (body: { code: string }) => callResult(disableTotp, { body });
