import { badRequest } from '../../errors.js';

export interface MonitoringTunnelTarget {
  organization: string;
  project: string;
}

/**
 * Checks a browser's error-monitoring envelope before it is relayed: the envelope header's DSN,
 * when present, must name the same organisation and project as the tunnel's o and p, so the
 * tunnel cannot be used to send arbitrary traffic elsewhere.
 */
export function checkEnvelope(envelope: string, target: MonitoringTunnelTarget): void {
  const firstLine = envelope.slice(0, envelope.indexOf('\n') === -1 ? undefined : envelope.indexOf('\n'));
  let header: unknown;
  try {
    header = JSON.parse(firstLine);
  } catch {
    throw badRequest('body: the envelope header (first line) must be JSON', 'INVALID_ENVELOPE');
  }
  if (typeof header !== 'object' || header === null) {
    throw badRequest('body: the envelope header must be a JSON object', 'INVALID_ENVELOPE');
  }
  const dsn = (header as { dsn?: unknown }).dsn;
  if (dsn === undefined) return;
  if (typeof dsn !== 'string') throw badRequest('body: the envelope dsn must be a string', 'INVALID_ENVELOPE');
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw badRequest('body: the envelope dsn is not a URL', 'INVALID_ENVELOPE');
  }
  const project = url.pathname.replace(/^\/+|\/+$/g, '');
  if (!url.hostname.startsWith(`o${target.organization}.`) || project !== target.project) {
    throw badRequest('body: the envelope dsn does not match o and p', 'ENVELOPE_MISMATCH');
  }
}

/** The upstream URL for o and p from a template such as https://o{o}.ingest.sentry.io/api/{p}/envelope/. */
export function upstreamUrl(template: string, target: MonitoringTunnelTarget): string {
  return template.replaceAll('{o}', target.organization).replaceAll('{p}', target.project);
}
