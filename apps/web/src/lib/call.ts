import {
  type BareEndpoint,
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
  endpointPath,
} from '@wearable/domain';
import { api } from './api';
import { type ApiResult, unwrap } from './api-client';

/**
 * Calling an endpoint from its contract, without the query cache: the sign-in pages use this
 * (they load no TanStack Query, issue 20); everything else imports it through `lib/endpoint.ts`.
 */
export type Callable = Endpoint | BareEndpoint;
type SpecOf<E extends Callable> =
  E extends Endpoint<infer S> ? S : E extends BareEndpoint<infer S> ? S : EndpointSpec;

/** The part of the input that names the call: what its cached read is filed under. */
export type CallInput<E extends Callable> = EndpointInput<SpecOf<E>>;
export type CallOutput<E extends Callable> = EndpointOutput<SpecOf<E>>;
/** The input argument: optional when the endpoint takes no params, query or body. */
export type CallArgs<E extends Callable> =
  Record<never, never> extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>];

function hasSchemas(endpoint: Callable): endpoint is Endpoint {
  return 'responses' in endpoint;
}

/** Whether the call goes without a bearer token (sign-in, refresh, an invitation's link). */
export const isPublicEndpoint = (endpoint: Callable): boolean =>
  hasSchemas(endpoint) ? endpoint.permission === 'public' : endpoint.public;

/**
 * The answer as `{ ok, status, data }`, never thrown for an HTTP refusal: for the sign-in forms,
 * which show a refusal's status and code themselves. Other code uses `call`.
 */
export async function callResult<E extends Callable>(
  endpoint: E,
  ...[input]: CallArgs<E>
): Promise<ApiResult<CallOutput<E>>> {
  const given = (input ?? {}) as { params?: object; query?: object; body?: unknown };
  const path = endpointPath(endpoint.path, given.params as Record<string, unknown> | undefined);
  return api.request<CallOutput<E>>(endpoint.method, path, {
    body: given.body,
    query: given.query as Record<string, string | number | boolean | undefined> | undefined,
    auth: !isPublicEndpoint(endpoint),
    // A raw answer (an image) is a Blob, not JSON.
    answer: endpoint.raw ? 'blob' : 'json',
  });
}

/**
 * Calls an endpoint from its contract: the path is built from the params, the answer is typed
 * from the declaration and, in development, checked against its schema (a drift between server
 * and web shows at once). A refusal throws `ApiError`, the one error type of a refused call.
 */
export async function call<E extends Callable>(
  endpoint: E,
  ...args: CallArgs<E>
): Promise<CallOutput<E>> {
  const data = unwrap(await callResult(endpoint, ...args));
  if (import.meta.env.DEV && hasSchemas(endpoint) && !endpoint.raw) {
    const schema = Object.values(endpoint.responses)[0];
    const checked = schema?.safeParse(data);
    if (checked && !checked.success) {
      console.error(`${endpoint.id}: the answer does not match its contract`, checked.error);
    }
  }
  return data;
}
