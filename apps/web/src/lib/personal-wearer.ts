import type { UserInfo } from '@wearable/domain';
import { useCurrentUser, useSession } from './current-user';

export interface PersonalWearer {
  uid: string;
  name: string;
}

/**
 * Whose records a personal user looks at: PERSONAL the wearer chosen on /select-device,
 * PERSONAL_SELF themself (their wearer uid is in linkedUids / devices, else their own uid).
 * Null for staff, or a PERSONAL user who has not chosen yet (the guard sends them to choose).
 */
export function personalWearerOf(
  user: UserInfo | null,
  selected: { uid: string; name: string } | null,
): PersonalWearer | null {
  if (user === null) return null;
  if (user.role === 'PERSONAL')
    return selected === null ? null : { uid: selected.uid, name: selected.name };
  if (user.role === 'PERSONAL_SELF') {
    const uid = user.linkedUids[0] ?? user.devices[0]?.uid ?? user.uid;
    return { uid, name: user.name };
  }
  return null;
}

export function usePersonalWearer(): PersonalWearer | null {
  const user = useCurrentUser();
  const { selectedDevice } = useSession();
  return personalWearerOf(user, selectedDevice);
}
