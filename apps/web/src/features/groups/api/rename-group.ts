import type { GroupView, RenameGroupBody } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGroupChange } from './group-change';

/** PATCH /v2/group/{groupId}: rename (409 GROUP_NAME_TAKEN when the organisation has that name). */
export const useRenameGroup = () =>
  useGroupChange(({ groupId, name }: RenameGroupBody & { groupId: string }) =>
    api.patch<GroupView>(`/v2/group/${encodeURIComponent(groupId)}`, {
      name,
    } satisfies RenameGroupBody),
  );
