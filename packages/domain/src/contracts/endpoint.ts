import type { z } from 'zod';
import type { Permission } from '../access/permissions.js';

/**
 * One declaration per endpoint. The server registers each endpoint with one line from it
 * (schemas, OpenAPI, error bodies and the permission check come from here); the web calls it
 * with `call(endpoint, input)`, typed from the same declaration. Paths are written once, here,
 * in OpenAPI style (`/v2/organization/{organizationId}/alertPolicy`).
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The error statuses an endpoint may answer with `errorBody` (documented in OpenAPI). */
export type ErrorStatus =
  400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 423 | 429 | 502 | 503;

type Schema = z.ZodType;

export interface EndpointSpec {
  method: HttpMethod;
  path: string;
  /** `public` for calls made before there is a session (sign-in, refresh); else a permission. */
  permission: Permission | 'public';
  /**
   * Answered to a signed-in user who has not agreed to the current terms yet (every other
   * endpoint answers them 403 TERMS_NOT_AGREED): what the terms modal needs (one's own record,
   * the agreement), signing out, the live ticket.
   */
  allowBeforeTerms?: boolean;
  /**
   * A public endpoint that authenticates its caller itself, with a bearer token or another proof
   * (the live stream: a ticket): OpenAPI lists the bearer token as optional.
   */
  optionalBearer?: boolean;
  summary: string;
  tags: readonly string[];
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The success answer, by status (usually one: 200, 201 or 204; a redirect, 302 or 303). */
  responses: Partial<Record<200 | 201 | 202 | 204 | 302 | 303, Schema>>;
  errors: readonly ErrorStatus[];
  /** Answered with something other than JSON (a file, a stream): the web does not parse it. */
  raw?: boolean;
  /** A body that is not JSON (an image): the content types it may be sent as (OpenAPI). */
  consumes?: readonly string[];
  /** A success answer that is not JSON: its content types (OpenAPI). */
  produces?: readonly string[];
}

/** An endpoint: its declaration plus `id`, the key its cached reads are filed under. */
export type Endpoint<S extends EndpointSpec = EndpointSpec> = S & { readonly id: string };

type SuccessSchema<S extends EndpointSpec> = S['responses'][keyof S['responses']];

/** What the caller sends: params, query and body, each only where the endpoint has one. */
export type EndpointInput<E extends EndpointSpec> = (E['params'] extends Schema
  ? { params: z.input<E['params']> }
  : { params?: undefined }) &
  (E['query'] extends Schema ? { query: z.input<E['query']> } : { query?: undefined }) &
  (E['body'] extends Schema ? { body: z.input<E['body']> } : { body?: undefined });

/** What the caller receives on success (the JSON the server sends, after its schema). */
export type EndpointOutput<E extends EndpointSpec> =
  SuccessSchema<E> extends Schema ? z.output<SuccessSchema<E>> : undefined;

/** What the server's handler gets, parsed: params, query and body. */
export interface EndpointRequest<E extends EndpointSpec> {
  params: E['params'] extends Schema ? z.output<E['params']> : Record<string, never>;
  query: E['query'] extends Schema ? z.output<E['query']> : Record<string, never>;
  body: E['body'] extends Schema ? z.output<E['body']> : undefined;
}

/** What the server's handler returns: the success answer before serialisation (nothing for a 204). */
export type EndpointReply<E extends EndpointSpec> =
  | (SuccessSchema<E> extends Schema ? z.input<SuccessSchema<E>> : undefined)
  | (204 extends keyof E['responses'] ? void : never);

/** The errors every bearer-token endpoint can answer, beside its own. */
export const BEARER_ERRORS = [400, 401, 403, 404] as const satisfies readonly ErrorStatus[];

/**
 * The endpoints of one area share their tag and usual errors: declare them once.
 *
 * ```ts
 * const policy = endpointsOf({ tags: ['Alert policy'], errors: BEARER_ERRORS });
 * export const getAlertPolicy = policy({ method: 'GET', path: '/v2/…', … });
 * ```
 */
export function endpointsOf(defaults: { tags: readonly string[]; errors: readonly ErrorStatus[] }) {
  return <const S extends Omit<EndpointSpec, 'tags' | 'errors'> & Partial<EndpointSpec>>(
    spec: S,
  ): Endpoint<S & { tags: readonly string[]; errors: readonly ErrorStatus[] }> =>
    defineEndpoint({ tags: defaults.tags, errors: defaults.errors, ...spec });
}

export function defineEndpoint<const S extends EndpointSpec>(spec: S): Endpoint<S> {
  return { ...spec, id: `${spec.method} ${spec.path}` };
}

/**
 * An endpoint without its schemas, for code that must stay small (the sign-in pages keep zod out
 * of their bundle): same id, method and path, same types. The compiler holds its method and path
 * to the endpoint's own (a typo does not compile) and makes a public endpoint say so; a test holds
 * each one of `bare-endpoints.ts` to the endpoint it stands for.
 */
export interface BareEndpoint<E extends EndpointSpec = EndpointSpec> {
  readonly id: string;
  readonly method: E['method'];
  readonly path: E['path'];
  /** Called without a bearer token (the endpoint's permission is `public`). */
  readonly public: boolean;
  readonly raw?: boolean;
  /** Type only: the endpoint it stands for. */
  readonly __endpoint?: E;
}

export function bareEndpoint<E extends EndpointSpec>(
  method: E['method'],
  path: E['path'],
  ...access: E['permission'] extends 'public' ? ['public'] : []
): BareEndpoint<E> {
  return { id: `${method} ${path}`, method, path, public: access.length > 0 };
}

/** `/v2/organization/{organizationId}` with `{ organizationId: 'o 1' }` → `/v2/organization/o%201`. */
export function endpointPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`${path} needs the parameter ${name}`);
    }
    if (value === '') throw new Error(`${path} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The same path as Fastify writes it: `{id}` → `:id`. */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
