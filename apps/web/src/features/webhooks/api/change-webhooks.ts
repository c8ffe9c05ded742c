import {
  createWebhook,
  type CreateWebhookBody,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
  type UpdateWebhookBody,
} from '@wearable/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, invalidateEndpoints } from '../../../lib/endpoint';

/** Every change refetches the list and the logs it may have touched. */
function useChange<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => invalidateEndpoints(queryClient, listWebhooks, listWebhookDeliveries),
  });
}

/** Register an endpoint: the answer carries its signing secret, shown once. */
export const useCreateWebhook = (organizationId: string) =>
  useChange((body: CreateWebhookBody) => call(createWebhook, { params: { organizationId }, body }));

export const useUpdateWebhook = () =>
  useChange(({ webhookId, body }: { webhookId: string; body: UpdateWebhookBody }) =>
    call(updateWebhook, { params: { webhookId }, body }),
  );

export const useDeleteWebhook = () =>
  useChange((webhookId: string) => call(deleteWebhook, { params: { webhookId } }));

/** A new secret, shown once; the old one stops at once. */
export const useRotateWebhookSecret = () =>
  useChange((webhookId: string) => call(rotateWebhookSecret, { params: { webhookId } }));

export const useSendTestWebhook = () =>
  useChange((webhookId: string) => call(sendTestWebhook, { params: { webhookId } }));

export const useResendWebhookDelivery = () =>
  useChange(({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
    call(resendWebhookDelivery, { params: { webhookId, deliveryId } }),
  );
