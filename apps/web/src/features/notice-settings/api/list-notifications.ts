import { listNotifications } from '@wearable/domain';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '../../../lib/endpoint';

/** The newest messages of the log the caller may see (tests, alert notices, own mails). */
export const useNotificationLog = (pageSize: number) =>
  useQuery(endpointQuery(listNotifications, { query: { page: 1, pageSize } }));
