import { createHash } from 'node:crypto';
import { FHIR_CODES } from '@wearable/domain';

/**
 * FHIR R4 resources built from what the organisation stores, nothing made up: pure functions, so
 * the stream (fhir.service.ts) and the tests (validated against HL7's R4 JSON schema) read the same.
 * Ids are name-based UUIDs (a re-export of the same data gives the same ids).
 */

/** A version-5-style UUID from a name: stable across exports. */
export function stableUuid(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export interface ExportWearer {
  uid: string;
  name: string;
  birthDate: string | null;
}

export interface ExportBracelet {
  id: string;
  serialNumber: string;
  deviceName: string;
  /** When this wearer started and stopped wearing it (ms); null end: still worn. */
  from: number;
  until: number | null;
}

export interface RollupRow {
  bucket: Date;
  hrCount: number;
  hrSum: number;
  tempCount: number;
  tempSum: number;
  steps: number;
}

export type Resolution = 'minute' | 'hour';

export interface Entry {
  fullUrl: string;
  resource: Record<string, unknown>;
}

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

const entry = (key: string, resource: Record<string, unknown>): Entry => {
  const id = stableUuid(key);
  return { fullUrl: `urn:uuid:${id}`, resource: { ...resource, id } };
};

export function patientEntry(wearer: ExportWearer, publicUrl: string): Entry {
  return entry(`patient|${wearer.uid}`, {
    resourceType: 'Patient',
    identifier: [{ system: `${publicUrl}/fhir/identifier/wearer`, value: wearer.uid }],
    name: [{ text: wearer.name }],
    ...(wearer.birthDate ? { birthDate: wearer.birthDate } : {}),
  });
}

export function deviceEntry(bracelet: ExportBracelet, patient: Entry, publicUrl: string): Entry {
  return entry(`device|${bracelet.id}`, {
    resourceType: 'Device',
    identifier: [{ system: `${publicUrl}/fhir/identifier/bracelet`, value: bracelet.id }],
    serialNumber: bracelet.serialNumber,
    deviceName: [{ name: bracelet.deviceName, type: 'user-friendly-name' }],
    type: { text: 'Wrist-worn wearable (bracelet)' },
    patient: { reference: patient.fullUrl },
  });
}

const code = (c: { loinc: string; display: string }) => ({
  coding: [{ system: LOINC, code: c.loinc, display: c.display }],
  text: c.display,
});
const category = (kind: 'vital-signs' | 'activity') => [
  { coding: [{ system: CATEGORY, code: kind }] },
];
const quantity = (value: number, c: { unit: string; unitDisplay: string }) => ({
  value,
  unit: c.unitDisplay,
  system: UCUM,
  code: c.unit,
});

/** The Observations of one rollup bucket: mean heart rate, mean skin temperature, steps. */
export function observationEntries(
  row: RollupRow,
  resolution: Resolution,
  patient: Entry,
  device: Entry | null,
): Entry[] {
  const start = row.bucket.getTime();
  const end = start + (resolution === 'minute' ? 60_000 : 3_600_000);
  const period = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  const common = {
    status: 'final',
    subject: { reference: patient.fullUrl },
    effectivePeriod: period,
    ...(device ? { device: { reference: device.fullUrl } } : {}),
  };
  const per = resolution === 'minute' ? 'minute' : 'hour';
  const key = `${patient.fullUrl}|${resolution}|${start}`;
  const out: Entry[] = [];
  if (row.hrCount > 0) {
    out.push(
      entry(`hr|${key}`, {
        resourceType: 'Observation',
        ...common,
        category: category('vital-signs'),
        code: code(FHIR_CODES.heartRate),
        valueQuantity: quantity(round(row.hrSum / row.hrCount, 1), FHIR_CODES.heartRate),
        method: { text: `Mean of ${row.hrCount} readings in the ${per}` },
      }),
    );
  }
  if (row.tempCount > 0) {
    out.push(
      entry(`skin|${key}`, {
        resourceType: 'Observation',
        ...common,
        category: category('vital-signs'),
        code: code(FHIR_CODES.skinTemperature),
        valueQuantity: quantity(round(row.tempSum / row.tempCount, 2), FHIR_CODES.skinTemperature),
        method: { text: `Mean of ${row.tempCount} readings in the ${per}` },
      }),
    );
  }
  if (row.steps > 0) {
    out.push(
      entry(`steps|${key}`, {
        resourceType: 'Observation',
        ...common,
        category: category('activity'),
        code: code(FHIR_CODES.stepsInterval),
        valueQuantity: quantity(row.steps, FHIR_CODES.stepsInterval),
      }),
    );
  }
  return out;
}

/** Steps of one whole local day (41950-7). */
export function dailyStepsEntry(
  day: { start: Date; end: Date; steps: number },
  patient: Entry,
): Entry {
  return entry(`steps-day|${patient.fullUrl}|${day.start.getTime()}`, {
    resourceType: 'Observation',
    status: 'final',
    subject: { reference: patient.fullUrl },
    effectivePeriod: { start: day.start.toISOString(), end: day.end.toISOString() },
    category: category('activity'),
    code: code(FHIR_CODES.stepsDay),
    valueQuantity: quantity(day.steps, FHIR_CODES.stepsDay),
  });
}

/** The bracelet this wearer wore at `at` (ms), if any. */
export function braceletAt(bracelets: ExportBracelet[], at: number): ExportBracelet | undefined {
  return bracelets.find((b) => b.from <= at && (b.until === null || at < b.until));
}
