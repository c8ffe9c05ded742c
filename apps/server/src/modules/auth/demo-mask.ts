/**
 * The public demo (/demo-api) never shows a real contact: staff e-mail addresses and phone
 * numbers in its answers are masked, whatever the endpoint (one place, applied to every demo
 * response by the auth plugin). JSON: the values of contact fields; text (CSV): anything that
 * looks like an e-mail address or a phone number.
 */
const CONTACT_KEYS = new Set(['email', 'mail', 'phoneNumber', 'phone', 'recipient']);

/** `sato.hanako@example.com` -> `s***@***.com`: enough to see it is an address, not whose. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskPhone(email);
  const dot = email.lastIndexOf('.');
  const tld = dot > at ? email.slice(dot) : '';
  return `${email.slice(0, Math.min(1, at))}***@***${tld}`;
}

/** `+819012345678` -> `+*********78`: the last two digits only. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const keep = digits.length > 4 ? 2 : 0;
  let seen = 0;
  return phone.replace(/\d/g, (d) => (++seen > digits.length - keep ? d : '*'));
}

const maskContactValue = (value: string): string =>
  value.includes('@') ? maskEmail(value) : maskPhone(value);

/** A copy of a JSON value with every contact field's string masked. */
export function maskContacts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskContacts);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      CONTACT_KEYS.has(key) && typeof v === 'string' ? maskContactValue(v) : maskContacts(v);
  }
  return out;
}

const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// E.164 (+81 90 1234 5678) or a Japanese number written with hyphens (090-1234-5678, 03-1234-5678).
const PHONE_IN_TEXT = /\+\d[\d -]{7,16}\d|\b0\d{1,4}-\d{1,4}-\d{3,4}\b/g;

/** Text (a CSV) with anything that looks like an e-mail address or a phone number masked. */
export function maskContactText(text: string): string {
  return text.replace(EMAIL_IN_TEXT, maskEmail).replace(PHONE_IN_TEXT, maskPhone);
}
