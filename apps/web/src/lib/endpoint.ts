import {
  type BareEndpoint,
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
  endpointPath,
} from '@wearable/domain';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from './api';
import { unwrap } from './api-client';

type Callable = Endpoint | BareEndpoint;
type SpecOf<E extends Callable> =
  E extends Endpoint<infer S> ? S : E extends BareEndpoint<infer S> ? S : EndpointSpec;

/** The part of the input that names the call: what its cached read is filed under. */
export type CallInput<E extends Callable> = EndpointInput<SpecOf<E>>;
export type CallOutput<E extends Callable> = EndpointOutput<SpecOf<E>>;

function hasSchemas(endpoint: Callable): endpoint is Endpoint {
  return 'responses' in endpoint;
}

/**
 * Calls an endpoint from its contract: the path is built from the params, the answer is typed
 * from the declaration and, in development, checked against its schema (a drift between server
 * and web shows at once). A refusal throws `ApiError`, the one error type of a refused call.
 */
export async function call<E extends Callable>(
  endpoint: E,
  ...[input]: Record<never, never> extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
): Promise<CallOutput<E>> {
  const given = (input ?? {}) as { params?: object; query?: object; body?: unknown };
  const path = endpointPath(endpoint.path, given.params as Record<string, unknown> | undefined);
  const result = await api.request<CallOutput<E>>(endpoint.method, path, {
    body: given.body,
    query: given.query as Record<string, string | number | boolean | undefined> | undefined,
    auth: hasSchemas(endpoint) ? endpoint.permission !== 'public' : undefined,
    // A raw answer (an image) is a Blob, not JSON.
    answer: endpoint.raw ? 'blob' : 'json',
  });
  const data = unwrap(result);
  if (import.meta.env.DEV && hasSchemas(endpoint) && !endpoint.raw) {
    const schema = Object.values(endpoint.responses)[0];
    const checked = schema?.safeParse(data);
    if (checked && !checked.success) {
      console.error(`${endpoint.id}: the answer does not match its contract`, checked.error);
    }
  }
  return data;
}

/** The cache key of a read: the endpoint's id, then its input. Invalidation goes by the id. */
export function endpointKey<E extends Callable>(endpoint: E, input?: CallInput<E>) {
  return input === undefined ? ([endpoint.id] as const) : ([endpoint.id, input] as const);
}

/** Query options for a read: `useQuery(endpointQuery(getX, { params: { id } }))`. */
export function endpointQuery<E extends Callable>(
  endpoint: E,
  ...[input]: Record<never, never> extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input as CallInput<E>),
    queryFn: () => call(endpoint, ...([input] as never)),
  });
}

/** Every cached read of these endpoints, whatever their input, is refetched. */
export function invalidateEndpoints(queryClient: QueryClient, ...endpoints: Callable[]) {
  return Promise.all(
    endpoints.map((endpoint) => queryClient.invalidateQueries({ queryKey: [endpoint.id] })),
  );
}
