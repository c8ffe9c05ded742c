import type { CreateGroupBody, GroupView } from '@wearable/domain';
import { api } from '../../../lib/api';
import { useGroupChange } from './group-change';

/** POST /v2/group: a new group of the organisation. */
export const useCreateGroup = () =>
  useGroupChange((body: CreateGroupBody) => api.post<GroupView>('/v2/group', body));
