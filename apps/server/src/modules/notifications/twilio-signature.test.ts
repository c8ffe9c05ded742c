import { describe, expect, it } from 'vitest';
import { isTwilioSignatureValid, twilioSignature } from './twilio-signature.js';

// Twilio's own published example (TwilioDevEd/api-snippets, security/signature_validation).
const TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+14158675309',
  Digits: '1234',
  From: '+14158675309',
  To: '+18005551212',
};
const SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe("Twilio's request signature", () => {
  it("computes Twilio's published example", () => {
    expect(twilioSignature(TOKEN, URL, PARAMS)).toBe(SIGNATURE);
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, URL, PARAMS)).toBe(true);
  });

  it('refuses a missing signature, another token, another URL and a changed or added parameter', () => {
    expect(isTwilioSignatureValid(TOKEN, undefined, URL, PARAMS)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, '', URL, PARAMS)).toBe(false);
    expect(isTwilioSignatureValid('54321', SIGNATURE, URL, PARAMS)).toBe(false);
    expect(
      isTwilioSignatureValid(
        TOKEN,
        SIGNATURE,
        'https://mycompany.com/myapp.php?foo=1&bar=3',
        PARAMS,
      ),
    ).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, URL, { ...PARAMS, Digits: '1235' })).toBe(
      false,
    );
    expect(isTwilioSignatureValid(TOKEN, SIGNATURE, URL, { ...PARAMS, Extra: '' })).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, `${SIGNATURE}x`, URL, PARAMS)).toBe(false);
  });

  it('orders by name, whatever order the form had', () => {
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(twilioSignature(TOKEN, URL, reversed)).toBe(SIGNATURE);
  });
});
