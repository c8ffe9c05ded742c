import { getPairedStatus } from '@wearable/domain';
import { call } from '../../../lib/endpoint';

/** Whether the wearer's bracelet was reported by its gateway (a refusal throws). */
export const fetchIsPaired = (uid: string) => call(getPairedStatus, { query: { targetUid: uid } });
