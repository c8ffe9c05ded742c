import {
  type Fixtures,
  type Json,
  type JsonSchema,
  sample,
  typeAccepts,
  typesOf,
} from './json-schema.js';

/**
 * Bad-input variants of every operation of the OpenAPI document, derived from its parameters and
 * request body schema. Each case says what the API owes it:
 * - invalid: the schema forbids it, so a 4xx; a 400 must name `names` in its message;
 * - rejected: a 4xx of any kind (unknown id, wrong content type, ...);
 * - safe: the schema may allow it, so anything but a 5xx (a 4xx still has the error shape).
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

interface Param {
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

type Query = Record<string, string | string[]>;
const OMIT = Symbol('omit');
type Value = Json | typeof OMIT;

const BIG = 'x'.repeat(10_000);
const BAD_DATES = ['2026-13-45', 'yesterday'];
// Well-formed but extreme: year 0 and 9999 are valid ISO yet outside what some databases and Date maths accept.
const EDGE_DATES = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '1970-01-01T00:00:00+23:59',
  '0001-01-01T00:00:00+15:59',
  '9999-12-31T23:59:59-15:59',
  '0001-01',
  '0000-01',
  '9999-12',
];
// Strings that are valid JSON but awkward for SQL, UTF-8 and display.
const EDGE_STRINGS = ["' OR '1'='1' --", '😀漢字\u202e', '\ud800', ' '];
const looksLikeDate = (name: string, s: JsonSchema) =>
  s.format === 'date-time' ||
  s.format === 'date' ||
  /(^|[a-z])(at|from|to|date|month|time)$/i.test(name);

/** The wrong-shaped values a field of this schema gets, each with whether the schema forbids it. */
function fieldValues(
  name: string,
  s: JsonSchema,
): { what: string; value: Json; invalid: boolean }[] {
  const out: { what: string; value: Json; invalid: boolean }[] = [];
  for (const value of [12345, true, 'text', { a: 1 }, [1]] as Json[]) {
    if (!typeAccepts(s, value))
      out.push({ what: `wrong type ${JSON.stringify(value)}`, value, invalid: true });
  }
  const types = typesOf(s);
  if (types.includes('string')) {
    out.push({
      what: '10k chars',
      value: BIG,
      invalid: (s.maxLength ?? Infinity) < BIG.length || !!s.enum || !!s.pattern,
    });
    if (s.enum) out.push({ what: 'unknown enum', value: 'NOT_A_VALUE', invalid: true });
    if (looksLikeDate(name, s)) {
      for (const d of BAD_DATES)
        out.push({ what: `date ${d}`, value: d, invalid: !!(s.format || s.pattern || s.enum) });
    }
    for (const d of looksLikeDate(name, s) ? EDGE_DATES : [])
      out.push({ what: `edge date ${d}`, value: d, invalid: false });
    for (const e of EDGE_STRINGS)
      out.push({ what: `edge string ${JSON.stringify(e)}`, value: e, invalid: false });
  }
  if (types.includes('integer') || types.includes('number')) {
    const enumOnly = !!s.enum;
    out.push({ what: 'negative', value: -1, invalid: enumOnly || (s.minimum ?? -Infinity) > -1 });
    out.push({ what: 'huge', value: 1e300, invalid: enumOnly || (s.maximum ?? Infinity) < 1e300 });
    out.push({ what: 'fractional', value: 1.5, invalid: enumOnly || !types.includes('number') });
    for (const edge of [s.minimum, s.maximum, 0]) {
      if (edge !== undefined)
        out.push({ what: `edge number ${edge}`, value: edge, invalid: false });
    }
  }
  if (types.includes('array')) {
    out.push({ what: 'empty array', value: [], invalid: (s.minItems ?? 0) > 0 });
    const max = s.maxItems;
    if (max !== undefined && max <= 5000) {
      const item = (s.items ? sample(s.items, name, {}) : null) ?? {};
      out.push({
        what: `${max} items (the most allowed)`,
        value: Array<Json>(max).fill(item),
        invalid: false,
      });
      out.push({ what: `${max + 1} items`, value: Array<Json>(max + 1).fill(item), invalid: true });
    }
  }
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Value): Json {
  const copy = structuredClone(root);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) {
    const container = node as Record<string | number, Json>;
    const next = container[key];
    if (next === null || typeof next !== 'object') container[key] = {};
    node = container[key] as Json;
  }
  const last = path[path.length - 1];
  if (last === undefined) return value === OMIT ? null : value;
  const container = node as Record<string | number, Json>;
  if (value === OMIT) delete container[last];
  else container[last] = value;
  return copy;
}

/** Every field of a body schema (objects and the first item of arrays), with whether it is required. */
function fieldsOf(
  s: JsonSchema,
  path: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; schema: JsonSchema; required: boolean }[] {
  if (depth > 5) return [];
  const out: { path: (string | number)[]; schema: JsonSchema; required: boolean }[] = [];
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const p = [...path, key];
    out.push({ path: p, schema: prop, required: (s.required ?? []).includes(key) });
    out.push(...fieldsOf(prop, p, depth + 1));
  }
  if (s.items && typesOf(s.items).length > 0 && path.length > 0) {
    const p = [...path, 0];
    out.push({ path: p, schema: s.items, required: false });
    out.push(...fieldsOf(s.items, p, depth + 1));
  }
  return out;
}

export interface CaseInput {
  fixtures: Fixtures;
  /** Whether a NUL character anywhere is a 400 (everywhere but the item-by-item gateway route). */
  nulRefused?: boolean;
  /** Authorization (and any other) headers of the caller. */
  auth: Record<string, string>;
}

/** A parameter's sample as it travels in a URL (parameters are scalars). */
function paramSample(p: Param, fx: Fixtures): string {
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

/** All bad-input cases of one operation for one caller. */
export function casesFor(
  op: Operation,
  { fixtures, auth, nulRefused = true }: CaseInput,
): RobustCase[] {
  const nulExpect: Expectation = nulRefused ? 'invalid' : 'safe';
  const base = baseline(op, fixtures);
  const json = { ...auth, 'content-type': 'application/json' };
  const bodyOf = (b: Json | undefined) => (b === undefined ? undefined : JSON.stringify(b));
  const cases: RobustCase[] = [];
  const add = (c: Omit<RobustCase, 'method'>) => cases.push({ method: op.method, ...c });
  const url = urlOf(op, base.pathValues, base.query);
  const withBody = (b: Json | undefined) => ({
    headers: op.body ? json : auth,
    ...(op.body ? { payload: bodyOf(b) } : {}),
  });

  add({ what: 'baseline', url, ...withBody(base.body), expect: 'safe' });

  for (const p of op.pathParams) {
    const at = (v: string, raw = false) =>
      urlOf(
        op,
        { ...base.pathValues, [p.name]: v },
        base.query,
        raw ? new Set([p.name]) : undefined,
      );
    const names = `params.${p.name}`;
    const long = 'p'.repeat(Math.min((p.schema.maxLength ?? 90) + 1, 99));
    if (long.length > (p.schema.maxLength ?? Infinity)) {
      add({
        what: `path ${p.name} over maxLength`,
        url: at(long),
        ...withBody(base.body),
        expect: 'invalid',
        names,
      });
    }
    add({
      what: `path ${p.name} unknown`,
      url: at(`does-not-exist-${Date.now()}`),
      ...withBody(base.body),
      expect: 'rejected',
    });
    // Over the router's parameter limit (100) this is a 414 before validation runs.
    add({
      what: `path ${p.name} 1000 chars`,
      url: at('p'.repeat(1000)),
      ...withBody(base.body),
      expect: 'rejected',
    });
    add({
      what: `path ${p.name} ../`,
      url: at('../../etc/passwd', true),
      ...withBody(base.body),
      expect: 'rejected',
    });
    add({
      what: `path ${p.name} encoded ../`,
      url: at('../../etc/passwd'),
      ...withBody(base.body),
      expect: 'rejected',
    });
    add({
      what: `path ${p.name} bad %-encoding`,
      url: at('a%E0%A4%Ab', true),
      ...withBody(base.body),
      expect: 'rejected',
    });
    add({
      what: `path ${p.name} %00`,
      url: at('a%00b', true),
      ...withBody(base.body),
      expect: nulExpect,
      names,
    });
  }

  for (const p of op.query) {
    const names = `querystring.${p.name}`;
    const at = (v: string | string[] | typeof OMIT) => {
      const q = { ...base.query };
      if (v === OMIT) delete q[p.name];
      else q[p.name] = v;
      return urlOf(op, base.pathValues, q);
    };
    const good = paramSample(p, fixtures);
    if (p.required)
      add({
        what: `query ${p.name} missing`,
        url: at(OMIT),
        ...withBody(base.body),
        expect: 'invalid',
        names,
      });
    add({
      what: `query ${p.name} repeated`,
      url: at([good, good]),
      ...withBody(base.body),
      expect: 'safe',
      names,
    });
    add({
      what: `query ${p.name} NUL`,
      url: at(`${good}\u0000`),
      ...withBody(base.body),
      expect: nulExpect,
      names,
    });
    for (const v of fieldValues(p.name, p.schema)) {
      // A query string carries only strings; objects and arrays have no query form.
      if (typeof v.value === 'object') continue;
      const s = String(v.value);
      // On the wire every query value is a string: '12345' is a fine plain string, 'true' may be an enum value.
      const plainString =
        typesOf(p.schema).includes('string') &&
        !p.schema.enum &&
        !p.schema.pattern &&
        !p.schema.format;
      const admitted =
        p.schema.enum?.map(String).includes(s) ||
        (plainString && s.length <= (p.schema.maxLength ?? Infinity));
      const invalid = v.invalid && !admitted;
      add({
        what: `query ${p.name} ${v.what}`,
        url: at(s),
        ...withBody(base.body),
        expect: invalid ? 'invalid' : 'safe',
        names,
      });
    }
  }

  const body = op.body;
  if (body) {
    add({ what: 'malformed JSON', url, headers: json, payload: '{"a": ', expect: 'rejected' });
    add({
      what: 'empty body with JSON content type',
      url,
      headers: json,
      payload: '',
      expect: 'rejected',
    });
    add({
      what: 'text/plain body',
      url,
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'hello',
      expect: 'rejected',
    });
    add({
      what: 'form body',
      url,
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1&b=2',
      expect: 'rejected',
    });
    const deep = 20_000;
    const raw: [string, string][] = [
      ['prototype pollution', '{"__proto__": {"polluted": true}}'],
      ['constructor pollution', '{"constructor": {"prototype": {"polluted": true}}}'],
      ['deeply nested JSON', `${'['.repeat(deep)}${']'.repeat(deep)}`],
      ['two JSON documents', `${JSON.stringify(base.body ?? {})}{}`],
    ];
    for (const [what, payload] of raw)
      add({ what, url, headers: json, payload, expect: 'rejected' });
    // The JSON parser drops a leading byte-order mark, so this is the baseline again.
    add({
      what: 'JSON with a BOM',
      url,
      headers: json,
      payload: `\ufeff${JSON.stringify(base.body ?? {})}`,
      expect: 'safe',
    });
    add({
      what: 'charset latin1',
      url,
      headers: { ...auth, 'content-type': 'application/json; charset=latin1' },
      payload: JSON.stringify(base.body ?? {}),
      expect: 'safe',
    });
    for (const whole of [[], 'text', 42, null, {}] as Json[]) {
      const missing = (body.required ?? [])[0];
      const names =
        Array.isArray(whole) || typeof whole !== 'object' || whole === null
          ? 'body'
          : missing
            ? `body.${missing}`
            : undefined;
      const invalid = !typeAccepts(body, whole) || (names !== undefined && whole !== null);
      add({
        what: `body ${JSON.stringify(whole)}`,
        url,
        headers: json,
        payload: JSON.stringify(whole),
        expect: invalid ? 'invalid' : 'safe',
        ...(names ? { names } : {}),
      });
    }
    for (const f of fieldsOf(body)) {
      const names = ['body', ...f.path].join('.');
      if (f.required)
        add({
          what: `${names} missing`,
          url,
          headers: json,
          payload: bodyOf(setAt(base.body ?? {}, f.path, OMIT)),
          expect: 'invalid',
          names,
        });
      if (typesOf(f.schema).includes('string')) {
        add({
          what: `${names} NUL`,
          url,
          headers: json,
          payload: bodyOf(setAt(base.body ?? {}, f.path, 'a\u0000b')),
          expect: nulExpect,
          names,
        });
      }
      for (const v of fieldValues(String(f.path[f.path.length - 1]), f.schema)) {
        add({
          what: `${names} ${v.what}`,
          url,
          headers: json,
          payload: bodyOf(setAt(base.body ?? {}, f.path, v.value)),
          expect: v.invalid ? 'invalid' : 'safe',
          names,
        });
      }
    }
  }
  return cases;
}
