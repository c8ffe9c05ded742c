import { fieldsOf, fieldValues, OMIT, setAt } from './field-values.js';
import { type Fixtures, type Json, typeAccepts, typesOf } from './json-schema.js';
import {
  baseline,
  type Expectation,
  type Operation,
  paramSample,
  type RobustCase,
  urlOf,
} from './openapi-operations.js';

/**
 * Bad-input variants of every operation of the OpenAPI document, derived from its parameters and
 * request body schema. Each case says what the API owes it:
 * - invalid: the schema forbids it, so a 4xx; a 400 must name `names` in its message;
 * - rejected: a 4xx of any kind (unknown id, wrong content type, ...);
 * - safe: the schema may allow it, so anything but a 5xx (a 4xx still has the error shape).
 */
export {
  operationsOf,
  type Expectation,
  type OpenApiDoc,
  type Operation,
  type RobustCase,
} from './openapi-operations.js';

export interface CaseInput {
  fixtures: Fixtures;
  /** Whether a NUL character anywhere is a 400 (everywhere but the item-by-item gateway route). */
  nulRefused?: boolean;
  /** Authorization (and any other) headers of the caller. */
  auth: Record<string, string>;
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
