import { badRequest } from '../../errors.js';

export interface MonitoringTunnelTarget {
  organization: string;
  project: string;
}

/** The organisation, project and host of the DSN the server relays for (MONITORING_DSN). */
export interface MonitoringDsnTarget extends MonitoringTunnelTarget {
  host: string;
}

export function dsnTarget(dsn: string): MonitoringDsnTarget {
  const url = new URL(dsn);
  return {
    host: url.host.toLowerCase(),
    organization: /^o(\d+)\./.exec(url.hostname)?.[1] ?? '',
    project: url.pathname.replace(/^\/+|\/+$/g, ''),
  };
}

const mismatch = (what: string) =>
  badRequest(`${what} is not the configured monitoring project`, 'ENVELOPE_MISMATCH');

/**
 * Checks a browser's error-monitoring envelope before it is relayed. The tunnel's o and p must be
 * the organisation and project configured on the server (MONITORING_DSN), and the envelope header's
 * DSN, when present, must name exactly that host and project: the tunnel relays to nobody else.
 * Without a configured DSN nothing is relayed, and only the envelope's shape is checked.
 */
export function checkEnvelope(
  envelope: unknown,
  target: MonitoringTunnelTarget,
  configured: MonitoringDsnTarget | undefined,
): string {
  if (typeof envelope !== 'string' || envelope === '') {
    throw badRequest('body: an envelope (newline-delimited JSON) is required', 'INVALID_ENVELOPE');
  }
  if (configured && target.organization !== configured.organization)
    throw mismatch('querystring.o');
  if (configured && target.project !== configured.project) throw mismatch('querystring.p');
  const firstLine = envelope.slice(
    0,
    envelope.indexOf('\n') === -1 ? undefined : envelope.indexOf('\n'),
  );
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
  if (dsn === undefined) return envelope;
  if (typeof dsn !== 'string')
    throw badRequest('body: the envelope dsn must be a string', 'INVALID_ENVELOPE');
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw badRequest('body: the envelope dsn is not a URL', 'INVALID_ENVELOPE');
  }
  const named = dsnTarget(url.href);
  const matches = configured
    ? named.host === configured.host && named.project === configured.project
    : named.organization === target.organization && named.project === target.project;
  if (!matches) throw mismatch('body: the envelope dsn');
  return envelope;
}

/** The upstream URL for o and p from a template such as https://o{o}.ingest.sentry.io/api/{p}/envelope/. */
export function upstreamUrl(template: string, target: MonitoringTunnelTarget): string {
  return template.replaceAll('{o}', target.organization).replaceAll('{p}', target.project);
}
