import { type CreateGroupBody, createGroup } from '@wearable/domain';
import { call } from '../../../lib/endpoint';
import { useGroupChange } from './group-change';

/** A new group of the organisation. */
export const useCreateGroup = () =>
  useGroupChange((body: CreateGroupBody) => call(createGroup, { body }));
