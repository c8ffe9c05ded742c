import { type Fixtures, type JsonSchema, sample } from './json-schema.js';

/**
 * The operations of the OpenAPI document as the robustness suite sees them, the case shape it sends,
 * and how a case's URL is built from an operation's path and query parameters.
 */
export type Expectation = 'invalid' | 'rejected' | 'safe';

export interface RobustCase {
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  expect: Expectation;
  names?: string;
}

export interface Param {
  name: string;
  required: boolean;
  schema: JsonSchema;
}
export interface Operation {
  method: string;
  path: string;
  pathParams: Param[];
  query: Param[];
  body?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      const params = (where: string): Param[] =>
        (op.parameters ?? [])
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema ?? {} }));
      const body = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params('path'),
        query: params('query'),
        ...(body ? { body } : {}),
      });
    }
  }
  return ops;
}

export type Query = Record<string, string | string[]>;

/** A parameter's sample as it travels in a URL (parameters are scalars). */
export function paramSample(p: Param, fx: Fixtures): string {
  const v = sample(p.schema, p.name, fx);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The valid-looking baseline of an operation: its path, query and body filled from the schemas. */
export function baseline(op: Operation, fx: Fixtures) {
  const pathValues: Record<string, string> = {};
  for (const p of op.pathParams) pathValues[p.name] = paramSample(p, fx);
  const query: Query = {};
  for (const p of op.query) if (p.required) query[p.name] = paramSample(p, fx);
  const body = op.body ? sample(op.body, 'body', fx) : undefined;
  return { pathValues, query, body };
}

/** %-encodes a value; a lone surrogate has no UTF-8 form, so it travels as an invalid byte. */
function encode(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%FF';
  }
}

export function urlOf(
  op: Operation,
  pathValues: Record<string, string>,
  query: Query,
  raw = new Set<string>(),
): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = pathValues[name] ?? '';
    return raw.has(name) ? v : encode(v);
  });
  const qs = Object.entries(query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${encode(k)}=${encode(x)}`))
    .join('&');
  return qs ? `${path}?${qs}` : path;
}
