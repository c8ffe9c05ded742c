/**
 * How long an SMS is, the way carriers count it (3GPP TS 23.038): a text of GSM-7 characters only
 * is sent in septets, 160 in one segment (153 per segment when split); one character outside
 * that alphabet (any kana or kanji, "…", "±", "·") makes the whole text UCS-2, 70 characters in
 * one segment (67 per segment when split), counted in UTF-16 units (an emoji is two).
 */

/** GSM 03.38's basic alphabet (one septet each). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Its extension table: an escape and the character, two septets each. */
const GSM_EXTENSION = '^{}\\[~]|€\f';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2). */
  units: number;
  /** Segments the carrier sends: 1 up to 160 / 70 units, then units / 153 or 67, rounded up. */
  segments: number;
}

/** Units in one segment of each encoding. */
export const SMS_SINGLE_SEGMENT: Readonly<Record<SmsEncoding, number>> = {
  'GSM-7': 160,
  'UCS-2': 70,
};
/** Units per segment of a text sent in several (the rest is the concatenation header). */
export const SMS_MULTI_SEGMENT: Readonly<Record<SmsEncoding, number>> = {
  'GSM-7': 153,
  'UCS-2': 67,
};

/** True when every character is in the GSM-7 alphabet (basic or extension). */
export const isGsm7 = (text: string): boolean =>
  [...text].every((c) => BASIC.has(c) || EXTENSION.has(c));

export function smsLength(text: string): SmsLength {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const units =
    encoding === 'GSM-7'
      ? [...text].reduce((n, c) => n + (EXTENSION.has(c) ? 2 : 1), 0)
      : text.length;
  const segments =
    units === 0
      ? 1
      : units <= SMS_SINGLE_SEGMENT[encoding]
        ? 1
        : Math.ceil(units / SMS_MULTI_SEGMENT[encoding]);
  return { encoding, units, segments };
}

/** The text fits one segment of its encoding. */
export const fitsOneSms = (text: string): boolean => smsLength(text).segments === 1;
