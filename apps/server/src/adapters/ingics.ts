import { emptyOutput, type AdapterOutput } from './adapter-output.js';
import { recordAdvertisement } from './advertisement.js';
import { hexBytes, isoAt, macId } from './bytes.js';

// Ingics iGS01S / iGS03 gateways (user manuals, "Payload Format"): one report per line,
//   $<report type>,<tag id>,<gateway id>,<rssi>,<raw packet content>[,<unix epoch timestamp>]
// over HTTP POST or MQTT, optionally wrapped as {"data": ["$GPRP,...", ...]} in JSON mode.

/** Reports that carry an advertisement (BLE 4.2 and BLE 5 advertisements and scan responses). */
const ADVERTISING_REPORTS = new Set(['GPRP', 'RSPR', 'LRAD', 'LRSR', '1MAD', '1MSR']);
/** Reports that say nothing about a tag: the gateway's heartbeat and its own GNSS position. */
const GATEWAY_REPORTS = new Set(['HBRP', 'GPSR']);
const RSSI = /^-?\d{1,3}$/;
const EPOCH = /^(\d{9,10})(?:\.(\d{1,3}))?$/;
const MAX_LINES = 5000;

function lineTime(field: string | undefined, receivedAt: Date): string | null {
  if (field === undefined) return isoAt(receivedAt);
  const m = EPOCH.exec(field.startsWith('*') ? field.slice(1) : field);
  if (!m) return null;
  return isoAt(Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0')));
}

function decodeLine(out: AdapterOutput, item: number, line: string, receivedAt: Date): void {
  const fields = line.split(',');
  const type = fields[0]?.startsWith('$') ? fields[0].slice(1) : null;
  if (type === null) return void out.refused.push({ item, reason: 'line does not start with $' });
  if (GATEWAY_REPORTS.has(type)) return;
  if (!ADVERTISING_REPORTS.has(type)) {
    return void out.refused.push({ item, reason: `unknown report type $${type}` });
  }
  if (fields.length !== 5 && fields.length !== 6) {
    return void out.refused.push({
      item,
      reason: `$${type} has ${fields.length} fields, expected 5 or 6`,
    });
  }
  const [, tag, gateway, rssiText = '', hex = '', epoch] = fields;
  const deviceId = macId(tag);
  if (deviceId === null) return void out.refused.push({ item, reason: 'tag id is not a MAC' });
  if (macId(gateway) === null) {
    return void out.refused.push({ item, reason: 'gateway id is not a MAC' });
  }
  const rssi = Number(rssiText);
  if (!RSSI.test(rssiText) || rssi < -127 || rssi > 20) {
    return void out.refused.push({ item, reason: `rssi ${rssiText} is not a number in -127..20` });
  }
  const at = lineTime(epoch, receivedAt);
  if (at === null)
    return void out.refused.push({ item, reason: `timestamp ${epoch} is not a Unix time` });
  const ad = hexBytes(hex, 'raw packet content');
  if (typeof ad === 'string') return void out.refused.push({ item, reason: ad });
  recordAdvertisement(out, item, { deviceId, rssi, at }, ad);
}

function linesOf(body: string): (string | null)[] | string {
  const text = body.trim();
  if (!text.startsWith('{')) return text.split(/\r?\n/);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'body starts with { but is not JSON';
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data)) return 'JSON body has no "data" array of report lines';
  return data.map((line: unknown) => (typeof line === 'string' ? line : null));
}

/**
 * Decodes an Ingics gateway's text reports (`$GPRP` ... lines, CRLF or LF separated, or JSON mode):
 * each line's advertisement becomes a sighting (and the iBS01's button an SOS); `$HBRP` heartbeats
 * are accepted and yield nothing; a bad line is refused by its 0-based line number.
 */
export function decodeIngics(body: string, receivedAt: Date): AdapterOutput {
  const out = emptyOutput();
  const lines = linesOf(body);
  if (typeof lines === 'string') {
    out.refused.push({ item: null, reason: lines });
    return out;
  }
  if (lines.length > MAX_LINES) {
    out.refused.push({ item: null, reason: `${lines.length} lines, at most ${MAX_LINES}` });
    return out;
  }
  lines.forEach((line, item) => {
    if (line === null) out.refused.push({ item, reason: 'report is not a string' });
    else if (line.trim() !== '') decodeLine(out, item, line.trim(), receivedAt);
  });
  return out;
}
