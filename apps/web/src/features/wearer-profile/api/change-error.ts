import type { ApiErrorBody } from '@wearable/domain';

/** A refused change with the server's body (its issues name the fields). */
export class ProfileChangeError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

/** The field an issue path names: 'body.birthDate' or ['birthDate']. */
export const fieldOf = (path: readonly PropertyKey[] | string): string => {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  return (parts[0] === 'body' ? parts[1] : parts[0]) ?? '';
};
