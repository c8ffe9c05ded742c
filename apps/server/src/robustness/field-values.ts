import { type Json, type JsonSchema, sample, typeAccepts, typesOf } from './json-schema.js';

/** Per-field bad and edge values, and helpers to put one into an otherwise valid body. */
export const OMIT = Symbol('omit');
export type Value = Json | typeof OMIT;

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
export function fieldValues(
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

export function setAt(root: Json, path: (string | number)[], value: Value): Json {
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
export function fieldsOf(
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
