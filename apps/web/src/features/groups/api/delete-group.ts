import { deleteGroup } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGroupChange } from './group-change';

/** Deletes a group: 409 GROUP_NOT_EMPTY while wearers are in it. */
export const useDeleteGroup = () =>
  useGroupChange((groupId: string) => call(deleteGroup, { params: { groupId } }));
