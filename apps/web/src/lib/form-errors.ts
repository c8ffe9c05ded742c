import type { ApiErrorBody } from '@wearable/domain';
import type { z } from 'zod';

/** The form field an issue names: `groupIds` from zod's ['groupIds', 0] or the server's 'body.groupIds.0'. */
function fieldOf(path: readonly PropertyKey[] | string): string {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const start = parts[0] === 'body' || parts[0] === 'querystring' || parts[0] === 'params' ? 1 : 0;
  return parts[start] ?? '';
}

/** Fields that fail the contract, checked in the browser exactly as the server checks them. */
export function contractErrors(result: z.ZodSafeParseResult<unknown>): Set<string> {
  return new Set(result.success ? [] : result.error.issues.map((issue) => fieldOf(issue.path)));
}

/** Fields the server named in its refusal. */
export function serverFieldErrors(body: ApiErrorBody | null): Set<string> {
  return new Set((body?.issues ?? []).map((issue) => fieldOf(issue.path)));
}

/** A text field of a submitted form ('' when absent). */
export function formText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}
