/** Heart-rate bounds a wearer's setting must stay within (spec section 5). */
export const HEART_RATE_LOWER_BOUND = 40;
export const HEART_RATE_UPPER_BOUND = 220;

/** Maximum heart rate for an age: 208 - 0.7 x age, capped to the bounds. */
export function maxHeartRate(age: number): number {
  const raw = Math.round(208 - 0.7 * age);
  return Math.min(HEART_RATE_UPPER_BOUND, Math.max(HEART_RATE_LOWER_BOUND, raw));
}

/** Age in whole years on a given date. */
export function ageOn(birthDate: string | Date, on: Date): number {
  const b = typeof birthDate === 'string' ? new Date(birthDate) : birthDate;
  let age = on.getUTCFullYear() - b.getUTCFullYear();
  const m = on.getUTCMonth() - b.getUTCMonth();
  if (m < 0 || (m === 0 && on.getUTCDate() < b.getUTCDate())) age--;
  return age;
}
