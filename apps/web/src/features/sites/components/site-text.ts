import { ApiError } from '../../../lib/api-client';

/** A fraction of the plan as a percentage people read and type (one decimal). */
export const percent = (fraction: number) => Math.round(fraction * 1000) / 10;

/** The server's reason, for a refusal the form cannot name more precisely. */
export const messageOf = (err: unknown) =>
  err instanceof ApiError ? (err.body?.message ?? err.message) : String(err);
