import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (X-Twilio-Signature), as Twilio documents and its libraries compute it:
 * the full URL Twilio requested (with any query string), then every POST parameter's name and value,
 * sorted by name, appended without separators; HMAC-SHA1 with the account's auth token; base64.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string | string[]>,
): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    // A repeated parameter: each value, sorted, after the name (twilio-node's getExpectedTwilioSignature).
    for (const v of Array.isArray(value) ? [...value].sort() : [value ?? '']) data += key + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Whether the signature is Twilio's for this URL and these parameters (constant-time comparison). */
export function isTwilioSignatureValid(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string | string[]>,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
