import type { Config } from '../../config.js';
import { badRequest } from '../../errors.js';

interface MonitoringTunnelTarget {
  organization: string;
  project: string;
}

/** The organisation, project and host of the DSN the server relays for (MONITORING_DSN). */
interface MonitoringDsnTarget extends MonitoringTunnelTarget {
  host: string;
}

function dsnTarget(dsn: string): MonitoringDsnTarget {
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
function checkEnvelope(
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
function upstreamUrl(template: string, target: MonitoringTunnelTarget): string {
  return template.replaceAll('{o}', target.organization).replaceAll('{p}', target.project);
}

/**
 * The tunnel of the console's error and performance monitoring: relays an envelope only for the
 * MONITORING_DSN configured on the server (to MONITORING_UPSTREAM, or the DSN host's envelope
 * endpoint); without it, checks the envelope's shape and drops it.
 */
export function monitoringService(
  config: Pick<Config, 'monitoringDsn' | 'monitoringUpstream'>,
  log: { warn(obj: object, msg: string): void },
) {
  const configured = config.monitoringDsn ? dsnTarget(config.monitoringDsn) : undefined;
  const template =
    config.monitoringUpstream ?? (configured && `https://${configured.host}/api/{p}/envelope/`);
  return {
    /** Checks the envelope (400 naming what is wrong) and relays it without waiting for the answer. */
    relay(envelope: unknown, target: MonitoringTunnelTarget): void {
      const checked = checkEnvelope(envelope, target, configured);
      if (!template || !configured) return;
      // Relay without holding the browser: the console never waits on monitoring.
      fetch(upstreamUrl(template, target), {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body: checked,
        signal: AbortSignal.timeout(5000),
      }).catch((err: unknown) => log.warn({ err }, 'monitoring relay failed'));
    },
  };
}
