/**
 * The slice of JSON Schema that @fastify/swagger writes for our zod contracts, and a sampler that
 * builds a plausible valid value from it. The robustness suite mutates these samples one field at a
 * time, so a new endpoint is covered as soon as it appears in /v2/openapi.json.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values the fixtures know (ids of the test organisation, group, wearer) by field name. */
export type Fixtures = Record<string, string>;

const alternatives = (s: JsonSchema): JsonSchema[] => s.anyOf ?? s.oneOf ?? [];

export const typesOf = (s: JsonSchema): string[] => {
  if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
  return alternatives(s).flatMap(typesOf);
};

const jsonType = (v: Json): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
};

/** Whether the schema's type (not its bounds) admits the value; a schema with no type admits anything. */
export function typeAccepts(s: JsonSchema, v: Json): boolean {
  if (v === null && s.nullable) return true;
  const types = typesOf(s);
  if (types.length === 0) return true;
  const t = jsonType(v);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

// Example strings tried against a schema's pattern, most specific first.
const PATTERN_EXAMPLES = [
  '09:00',
  '+819012345678',
  '2026-11',
  '2026-11-21',
  '2026-11-21T09:00:00.000Z',
  'robust@example.test',
];

function sampleString(s: JsonSchema, name: string, fx: Fixtures): string {
  if (s.enum?.length) return String(s.enum[0]);
  // An array's items are looked up by the singular name (alertIds -> alertId, uids -> uid).
  const known = fx[name] ?? fx[name.replace(/s$/, '')];
  if (known !== undefined) return known;
  if (s.format === 'date-time') return fx.now ?? new Date().toISOString();
  if (s.format === 'email') return 'robust@example.test';
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    const hit = PATTERN_EXAMPLES.find((e) => re.test(e));
    if (hit) return hit;
  }
  return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
}

function sampleNumber(s: JsonSchema): number {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
  if (lo !== undefined && hi !== undefined) return Math.floor((lo + hi) / 2);
  return lo ?? (hi !== undefined ? Math.min(hi, 1) : 1);
}

/** A plausible valid value for the schema (every property filled, one array item). */
export function sample(s: JsonSchema, name: string, fx: Fixtures, depth = 0): Json {
  if (s.default !== undefined && fx[name] === undefined) return s.default as Json;
  const alts = alternatives(s);
  if (!s.type && alts[0]) return sample(alts[0], name, fx, depth);
  const type = typesOf(s)[0];
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      if (depth > 6) return out;
      for (const [key, prop] of Object.entries(s.properties ?? {}))
        out[key] = sample(prop, key, fx, depth + 1);
      return out;
    }
    case 'array': {
      if (!s.items || typesOf(s.items).length === 0) return [];
      const item = sample(s.items, name, fx, depth + 1);
      return Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => item);
    }
    case 'integer':
    case 'number':
      return s.enum?.length ? (s.enum[0] as number) : sampleNumber(s);
    case 'boolean':
      return s.enum?.length ? (s.enum[0] as boolean) : true;
    case 'string':
      return sampleString(s, name, fx);
    case undefined:
    default:
      return null;
  }
}
