import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import {
  type Endpoint,
  type EndpointReply,
  type EndpointRequest,
  errorBody,
  routerPath,
} from '@wearable/domain';
import type { AccessWhat } from '../modules/access-log/access-log-chain.js';

const present = (ids: readonly (string | null | undefined)[] | undefined): string[] =>
  (ids ?? []).filter((id): id is string => typeof id === 'string' && id !== '');

/** The request a handler gets: Fastify's, with params, query and body typed from the contract. */
export type ServedRequest<E extends Endpoint> = Omit<FastifyRequest, 'params' | 'query' | 'body'> &
  EndpointRequest<E>;

export type EndpointHandler<E extends Endpoint> = (
  request: ServedRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointReply<E> | FastifyReply> | EndpointReply<E> | FastifyReply;

/**
 * A read of people's data, for the access log (docs/access-log.md): what it shows, and whom —
 * from the request (`people`) and/or from the answer (`peopleInAnswer`, e.g. an alert page). The
 * entry is written by the access-log plugin before a successful answer leaves; a refused read
 * writes none. A handler that sends its own reply names people with `noteRead` before sending.
 */
export interface PersonRead<E extends Endpoint> {
  what: AccessWhat;
  people?: (request: ServedRequest<E>) => readonly (string | undefined)[];
  peopleInAnswer?: (answer: EndpointReply<E>) => readonly (string | null | undefined)[];
}

/** Route options the contract does not say (hooks, body limit); rarely needed. */
export type ServeOptions<E extends Endpoint = Endpoint> = Omit<
  RouteShorthandOptions,
  'schema' | 'config'
> & { reads?: PersonRead<E> };

/**
 * Registers an endpoint from its one declaration: path, schemas (validation, serialisation and
 * OpenAPI), error bodies, tags, security, the permission the auth plugin checks before the
 * handler runs and whether the terms gate lets it through before the terms are agreed
 * (`allowBeforeTerms`). The handler keeps only the resource-level check (the service's access call).
 *
 * The handler returns the answer; when the endpoint declares one success status other than 200
 * (201 created, 204 no content) that status is sent, so handlers write no `reply.code(...)`.
 * A handler that sends its own reply (a file, a redirect) returns `reply`.
 */
export function serve<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: ServeOptions<E> = {},
): void {
  const { reads, ...routeOptions } = options;
  const isPublic = endpoint.permission === 'public';
  // A public endpoint needs no token, or takes one optionally when it authenticates its caller itself.
  const security: Record<string, string[]>[] | undefined = !isPublic
    ? [{ bearer: [] }]
    : endpoint.optionalBearer
      ? [{ bearer: [] }, {}]
      : undefined;
  const statuses = Object.keys(endpoint.responses).map(Number);
  // One declared success status is sent by default; with several, the handler sets its own.
  const status = statuses.length === 1 ? statuses[0] : undefined;
  const response: Record<number, unknown> = { ...endpoint.responses };
  for (const code of endpoint.errors) response[code] = errorBody;
  app.route({
    ...routeOptions,
    method: endpoint.method,
    url: routerPath(endpoint.path),
    config: isPublic
      ? { public: true }
      : {
          permission: endpoint.permission as never,
          ...(endpoint.allowBeforeTerms ? { allowBeforeTerms: true } : {}),
        },
    schema: {
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(security ? { security } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.consumes ? { consumes: [...endpoint.consumes] } : {}),
      ...(endpoint.produces ? { produces: [...endpoint.produces] } : {}),
      response,
    },
    handler: async (request, reply) => {
      const served = request as unknown as ServedRequest<E>;
      if (reads)
        request.accessRead = { what: reads.what, personIds: present(reads.people?.(served)) };
      const answer = await handler(served, reply);
      if (answer === reply || reply.sent) return reply;
      if (reads?.peopleInAnswer && request.accessRead) {
        const inAnswer = present(reads.peopleInAnswer(answer));
        request.accessRead.personIds = [...request.accessRead.personIds, ...inAnswer];
      }
      if (status === 204) return reply.code(204).send(null);
      if (status !== undefined) reply.code(status);
      return reply.send(answer);
    },
  });
}
