import { api } from '../../../lib/api';
import { useGroupChange } from './group-change';

/** DELETE /v2/group/{groupId}: 409 GROUP_NOT_EMPTY while wearers are in it. */
export const useDeleteGroup = () =>
  useGroupChange((groupId: string) =>
    api.delete<unknown>(`/v2/group/${encodeURIComponent(groupId)}`),
  );
