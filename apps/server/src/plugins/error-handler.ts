import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '@wearable/domain';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.js';
import { ApiError } from '../errors.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const body = (
  statusCode: number,
  code: string,
  message: string,
  issues?: ApiErrorBody['issues'],
  retryAfterSeconds?: number,
): ApiErrorBody => ({
  statusCode,
  error: STATUS_TEXT[statusCode] ?? 'Error',
  message,
  code,
  ...(issues ? { issues } : {}),
  ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
});

/**
 * Fastify's `frameworkErrors` option: the router's own refusals (a path parameter over its length
 * limit, a badly %-encoded URL) leave in the same ApiErrorBody shape instead of Fastify's bare body.
 */
export function frameworkErrors(
  err: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  const message =
    status === 414
      ? 'A path parameter is longer than 100 characters'
      : 'The URL is not correctly %-encoded';
  void reply.code(status).send(body(status, err.code, message));
}

/** Every failure leaves as ApiErrorBody; bad input is a 4xx naming the field, never a 500. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      if (err.retryAfterSeconds !== undefined)
        void reply.header('Retry-After', String(err.retryAfterSeconds));
      return reply
        .code(err.statusCode)
        .send(body(err.statusCode, err.code, err.message, err.issues, err.retryAfterSeconds));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const issues = err.validation.map((v) => {
        const path = [where, ...String(v.instancePath).split('/').filter(Boolean)].join('.');
        return { path, message: v.message ?? 'is invalid' };
      });
      const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      return reply.code(400).send(body(400, 'VALIDATION_FAILED', message, issues));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx: malformed JSON, wrong content type, body too large, rate limit.
      return reply.code(status).send(body(status, err.code ?? 'BAD_REQUEST', err.message));
    }
    if (isDatabaseUnavailable(err)) {
      // The database is gone for now (restart, network): the client retries; /readyz says not ready.
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply
        .code(503)
        .send(body(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly'));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(body(500, 'INTERNAL', 'Internal server error'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(body(404, 'NOT_FOUND', `No route ${request.method} ${request.url}`)),
  );
}
