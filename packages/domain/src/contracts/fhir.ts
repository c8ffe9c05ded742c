import { z } from 'zod';
import { id, isoInstant } from './common.js';
import { BEARER_ERRORS, defineEndpoint } from './endpoint.js';

/** A month (31 days) at most per export: per-minute data of a month is about 130,000 Observations. */
export const FHIR_EXPORT_MAX_DAYS = 31;

/**
 * GET /v2/device/fhir: one wearer's data for a period as a FHIR R4 `Bundle` of type `collection`
 * (Patient, Device, Observations), from the per-minute or per-hour rollups (`resolution`, default
 * hour). The period is [from, to); `to` after `from`, at most FHIR_EXPORT_MAX_DAYS days.
 */
export const fhirExportQuery = z
  .object({
    uid: id,
    from: isoInstant,
    to: isoInstant,
    resolution: z.enum(['minute', 'hour']).default('hour'),
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), {
    path: ['to'],
    message: 'must be after from',
  })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= FHIR_EXPORT_MAX_DAYS * 86_400_000, {
    path: ['to'],
    message: `must be at most ${FHIR_EXPORT_MAX_DAYS} days after from`,
  });
export type FhirExportQuery = z.output<typeof fhirExportQuery>;

/** The export: streamed, so it is `raw` (the console does not parse it as the JSON of a call). */
export const exportFhir = defineEndpoint({
  method: 'GET',
  path: '/v2/device/fhir',
  permission: 'wearer:exportFhir',
  tags: ['Device data'],
  errors: BEARER_ERRORS,
  summary:
    "A wearer's data for a period (at most 31 days) as a FHIR R4 Bundle of type collection: Patient, Device and Observations (heart rate 8867-4, skin temperature 39106-0, steps 55423-8 per interval and 41950-7 per day) from the per-minute or per-hour rollups; streamed",
  query: fhirExportQuery,
  raw: true,
  produces: ['application/fhir+json'],
  responses: { 200: z.unknown().describe('A FHIR R4 Bundle (JSON), streamed') },
});

/** The codes the export uses (LOINC, UCUM), so the docs and the tests read the same table. */
export const FHIR_CODES = {
  heartRate: { loinc: '8867-4', display: 'Heart rate', unit: '/min', unitDisplay: 'beats/minute' },
  skinTemperature: {
    loinc: '39106-0',
    display: 'Temperature of Skin',
    unit: 'Cel',
    unitDisplay: 'C',
  },
  stepsInterval: {
    loinc: '55423-8',
    display: 'Number of steps in unspecified time Pedometer',
    unit: '{steps}',
    unitDisplay: 'steps',
  },
  stepsDay: {
    loinc: '41950-7',
    display: 'Number of steps in 24 hour Measured',
    unit: '{steps}/d',
    unitDisplay: 'steps/day',
  },
} as const;
