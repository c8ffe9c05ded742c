import {
  type CreateClientBody,
  createClient,
  getDemoStatus,
  listClients,
  removeDemoData,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Creates an organisation (and invites its owner); the list then shows it. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClientBody) => call(createClient, { body }),
    onSuccess: () => invalidateEndpoints(queryClient, listClients),
  });
}

/** Deletes the demo organisations and accounts (as `npm run cli -- demo remove`). */
export function useRemoveDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(removeDemoData),
    onSuccess: () => invalidateEndpoints(queryClient, getDemoStatus, listClients),
  });
}
