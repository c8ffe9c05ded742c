import { type RenameGroupBody, renameGroup } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGroupChange } from './group-change';

/** Renames a group (409 GROUP_NAME_TAKEN when the organisation has that name). */
export const useRenameGroup = () =>
  useGroupChange(({ groupId, name }: RenameGroupBody & { groupId: string }) =>
    call(renameGroup, { params: { groupId }, body: { name } }),
  );
