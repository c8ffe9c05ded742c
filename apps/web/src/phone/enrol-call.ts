import {
  ENROLMENT_ERRORS,
  type EnrolPhoneResponse,
  enrolPhone,
  enrolPhoneResponse,
} from '@wearable/domain';
import type { EnrolProblem } from './enrol-problem';

// Loaded only when the page opens with an enrolment link: its schemas stay out of the first load.

export type EnrolOutcome =
  { ok: true; value: EnrolPhoneResponse } | { ok: false; problem: EnrolProblem };

const PROBLEMS: Record<string, EnrolProblem> = {
  [ENROLMENT_ERRORS.used]: 'used',
  [ENROLMENT_ERRORS.expired]: 'expired',
  [ENROLMENT_ERRORS.replaced]: 'replaced',
  [ENROLMENT_ERRORS.unknown]: 'unknown',
  [ENROLMENT_ERRORS.tooMany]: 'tooMany',
};

/** POST /v2/phone/enrol with the code from the link: the gateway's credential and what to show. */
export async function enrol(code: string): Promise<EnrolOutcome> {
  let response: Response;
  try {
    response = await fetch(enrolPhone.path, {
      method: enrolPhone.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
  } catch {
    return { ok: false, problem: 'offline' };
  }
  const body = (await response.json().catch(() => null)) as { code?: string } | null;
  if (!response.ok) {
    const known = body?.code ? PROBLEMS[body.code] : undefined;
    return { ok: false, problem: known ?? (response.status === 400 ? 'unknown' : 'failed') };
  }
  const parsed = enrolPhoneResponse.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: 'failed' };
}
