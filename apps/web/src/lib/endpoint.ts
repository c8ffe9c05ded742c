import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call, type CallArgs, type Callable, type CallInput } from './call';

export { call, callResult, type CallInput, type CallOutput } from './call';

/** The cache key of a read: the endpoint's id, then its input. Invalidation goes by the id. */
export function endpointKey<E extends Callable>(endpoint: E, input?: CallInput<E>) {
  return input === undefined ? ([endpoint.id] as const) : ([endpoint.id, input] as const);
}

/** Query options for a read: `useQuery(endpointQuery(getX, { params: { id } }))`. */
export function endpointQuery<E extends Callable>(endpoint: E, ...[input]: CallArgs<E>) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input as CallInput<E>),
    queryFn: () => call(endpoint, ...([input] as CallArgs<E>)),
  });
}

/** Every cached read of these endpoints, whatever their input, is refetched. */
export function invalidateEndpoints(queryClient: QueryClient, ...endpoints: Callable[]) {
  return Promise.all(
    endpoints.map((endpoint) => queryClient.invalidateQueries({ queryKey: [endpoint.id] })),
  );
}
