import { z } from 'zod';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { clientParams } from './alert-settings.js';

/** The most rows one import takes (a larger file is split; 400 otherwise). */
export const IMPORT_ROW_LIMIT = 2000;

/**
 * The columns of each CSV (header names, any order; the console's parser reads the file and sends
 * the cells as text, the server alone decides what is valid). Optional columns may be left out.
 */
export const BRACELET_IMPORT_COLUMNS = ['serialNumber', 'model', 'wearer'] as const;
export const WEARER_IMPORT_COLUMNS = [
  'name',
  'nameReading',
  'group',
  'birthYear',
  'serialNumber',
] as const;
export type BraceletImportColumn = (typeof BRACELET_IMPORT_COLUMNS)[number];
export type WearerImportColumn = (typeof WEARER_IMPORT_COLUMNS)[number];

/**
 * What can be wrong with one cell: the server's message for each (the console shows its own words
 * for the same problem in the reader's language, found by this message).
 */
export const IMPORT_PROBLEMS = {
  required: 'is required',
  tooLong: 'is too long',
  serialFormat: 'must be printable ASCII without spaces',
  duplicateInFile: 'appears more than once in the file',
  serialTaken: 'is registered to another organisation',
  wearerUnknown: 'no wearer of this organisation has this name',
  wearerAmbiguous: 'several wearers of this organisation have this name',
  wearerHasBracelet: 'this wearer already wears another bracelet',
  braceletWorn: 'this bracelet is worn by someone else',
  braceletUnknown: 'no bracelet of this organisation has this serial number',
  groupUnknown: 'no group of this organisation has this name',
  groupNotYours: 'you may not add wearers to this group',
  pairNotAllowed: 'your role may not pair bracelets',
  birthYear: 'must be a year (YYYY) or a date (YYYY-MM-DD) between 1900 and this year',
  invalidText: 'must be valid Unicode text',
} as const;
export type ImportProblem = keyof typeof IMPORT_PROBLEMS;
/** The problem a server message names, for the console's words (undefined: show the message). */
export const importProblemOf = (message: string): ImportProblem | undefined =>
  (Object.keys(IMPORT_PROBLEMS) as ImportProblem[]).find((k) => IMPORT_PROBLEMS[k] === message);
/**
 * A refused row's issue path: `rows.<n>.<column>`, n counted from 1 at the first row under the
 * header (the preview numbers rows the same way).
 */
export const importIssuePath = (row: number, column: string) => `rows.${row}.${column}`;
export const parseImportIssuePath = (path: string): { row: number; column: string } | null => {
  const m = /^rows\.(\d+)\.(\w+)$/.exec(path);
  return m ? { row: Number(m[1]), column: m[2]! } : null;
};

const cell = z.string().max(1000);
/**
 * The file as rows of text cells. `dryRun`: check everything and answer what would happen, writing
 * nothing (the preview). Without it, every row is written in one transaction or none is.
 */
export const braceletImportBody = z.strictObject({
  dryRun: z.boolean().default(false),
  rows: z
    .array(
      z.strictObject({
        serialNumber: cell.optional(),
        model: cell.optional(),
        wearer: cell.optional(),
      }),
    )
    .min(1)
    .max(IMPORT_ROW_LIMIT),
});
export type BraceletImportBody = z.input<typeof braceletImportBody>;
export const wearerImportBody = z.strictObject({
  dryRun: z.boolean().default(false),
  rows: z
    .array(
      z.strictObject({
        name: cell.optional(),
        nameReading: cell.optional(),
        group: cell.optional(),
        birthYear: cell.optional(),
        serialNumber: cell.optional(),
      }),
    )
    .min(1)
    .max(IMPORT_ROW_LIMIT),
});
export type WearerImportBody = z.input<typeof wearerImportBody>;

/** create: new; update: known, something changes; unchanged: known and already so (a re-import). */
export const IMPORT_ACTIONS = ['create', 'update', 'unchanged'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];
export const importResult = z.object({
  dryRun: z.boolean(),
  rows: z.array(z.object({ row: z.number().int(), action: z.enum(IMPORT_ACTIONS) })),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
});
export type ImportResult = z.infer<typeof importResult>;

const imports = endpointsOf({ tags: ['Fleet'], errors: BEARER_ERRORS });

export const importBracelets = imports({
  method: 'POST',
  path: '/v2/client/{clientId}/bracelets/import',
  permission: 'bracelet:register',
  summary:
    'Register bracelets from a CSV (serial number, model, optional wearer): all rows or none; 400 names each bad row and column',
  params: clientParams,
  body: braceletImportBody,
  responses: { 200: importResult },
  // A serial registered by a concurrent request between the check and the write: nothing is written.
  errors: [...BEARER_ERRORS, 409],
});

export const importWearers = imports({
  method: 'POST',
  path: '/v2/client/{clientId}/wearers/import',
  permission: 'wearer:manage',
  summary:
    'Add wearers from a CSV (name, reading, group, birth year, optional bracelet): all rows or none; 400 names each bad row and column',
  params: clientParams,
  body: wearerImportBody,
  responses: { 200: importResult },
});
