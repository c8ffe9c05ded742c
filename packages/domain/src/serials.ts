/** What a serial's ends may carry that is no part of it (the database's trigger trims the same). */
const EDGES = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * A bracelet serial as it is stored and looked up: trimmed, ASCII letters upper-case, so that
 * `br-daiwa-01 ` and `BR-DAIWA-01` name one bracelet (migration 033 keeps the table so).
 */
export const normalizeSerial = (serial: string): string =>
  serial.replace(EDGES, '').replace(/[a-z]+/g, (s) => s.toUpperCase());
