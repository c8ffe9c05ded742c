import { api } from '../../../lib/api';

/** GET /v2/device/isPairedWearable?targetUid=: whether the wearer's bracelet was reported by its gateway. */
export const fetchIsPaired = (uid: string) =>
  api.get<{ isPaired: boolean }>('/v2/device/isPairedWearable', { query: { targetUid: uid } });
