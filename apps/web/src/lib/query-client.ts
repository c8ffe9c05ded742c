import { QueryClient } from '@tanstack/react-query';
import { NotSignedInError } from './api-client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The specification: query retry 1. A missing token is final, not worth a retry.
        retry: (failureCount, error) => !(error instanceof NotSignedInError) && failureCount < 1,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}
