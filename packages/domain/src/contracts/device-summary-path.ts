/**
 * The device summary's path and the query of the console's compact form, without the contract's
 * schemas: the console's first script asks for /devices' data with them before anything else has
 * loaded (its sign-in page carries no zod). The contract (`getDeviceSummary`) uses the same path.
 */
export const DEVICE_SUMMARY_PATH = '/v3/device/summary';
export const SUMMARY_COLUMNS_QUERY = { format: 'columns', settled: 'true' } as const;
