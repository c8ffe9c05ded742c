import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { personOkResponse, personParams } from './people.js';
import type { BinaryFile } from './sites.js';

/**
 * A person's data on request (APPI disclosure and deletion, issue 39 item 5; docs/privacy.md): everything the
 * product holds about one wearer as a ZIP, and its erasure.
 */
export const personDataArchive = z.custom<BinaryFile>(() => true);

/** The files of the archive, in order (docs/privacy.md says what each holds). */
export const PERSON_DATA_FILES = [
  'README.txt',
  'profile.json',
  'devices.csv',
  'device-assignments.csv',
  'readings.csv',
  'reading-minutes.csv',
  'reading-hours.csv',
  'latest.csv',
  'positions.csv',
  'places.csv',
  'device-events.csv',
  'alerts.csv',
  'notifications.csv',
  'snoozes.csv',
  'night-round-marks.csv',
  'family-links.csv',
  'audit.csv',
  'access-log.csv',
] as const;

const personData = endpointsOf({ tags: ['People'], errors: BEARER_ERRORS });

export const exportPersonData = personData({
  method: 'GET',
  path: '/v2/user/{uid}/dataExport',
  permission: 'person:export',
  summary:
    'Everything held about one wearer as a ZIP of JSON and CSV (owners; a PERSONAL_SELF user: their own only)',
  params: personParams,
  responses: { 200: personDataArchive },
  produces: ['application/zip'],
  raw: true,
});

export const erasePersonData = personData({
  method: 'DELETE',
  path: '/v2/user/{uid}/data',
  permission: 'person:erase',
  summary:
    'Erase a wearer: their readings, positions, alerts, notices and profile go; the audit log keeps that it happened',
  params: personParams,
  responses: { 200: personOkResponse },
});
