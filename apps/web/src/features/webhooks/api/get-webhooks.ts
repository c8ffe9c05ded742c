import { listWebhookDeliveries, listWebhooks } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The organisation's webhook endpoints (never their secrets). */
export const useWebhooks = (organizationId: string) =>
  useQuery(endpointQuery(listWebhooks, { params: { organizationId } }));

/** One endpoint's delivery log, newest first; refreshed while some delivery is still pending. */
export const useWebhookDeliveries = (webhookId: string, page: number) =>
  useQuery({
    ...endpointQuery(listWebhookDeliveries, {
      params: { webhookId },
      query: { page, pageSize: 20 },
    }),
    refetchInterval: (q) =>
      q.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false,
  });
