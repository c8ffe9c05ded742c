import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client';
import { session } from '../lib/session';

/** The app's one query cache; whatever ends the session (logout, failed refresh) also forgets it. */
const queryClient = createQueryClient();
session.onEnd(() => queryClient.clear());

/**
 * The query cache around a part of the app that uses it. Loaded with the first page that needs it, not by
 * the sign-in form (issue 20: /login within 120 kB gzip of JavaScript). Under another QueryRoot, or a
 * test's own client, it adds nothing.
 */
export function QueryRoot({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  if (outer !== undefined) return children;
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
