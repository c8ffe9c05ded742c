/**
 * Error and performance monitoring (spec section 1): sent through the same-origin tunnel
 * /monitoring?o=<organisation>&p=<project>; 10% of traces, 10% of replay sessions, every
 * session with an error; all text and inputs masked, all media blocked; environment "prod".
 * Off unless the build sets VITE_MONITORING_DSN; this module and the SDK are loaded after the
 * first render (main.tsx) so they never weigh on the login page.
 */
export const MONITORING_SAMPLING = {
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

export interface MonitoringOptions {
  dsn: string;
  tunnel: string;
  environment: 'prod';
  tracesSampleRate: number;
  replaysSessionSampleRate: number;
  replaysOnErrorSampleRate: number;
}

/** The SDK options for a DSN such as https://<key>@o123.ingest.example.io/456, or null if it is not one. */
export function monitoringOptions(dsn: string | undefined): MonitoringOptions | null {
  if (!dsn) return null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const organization = /^o(\d+)\./.exec(url.hostname)?.[1];
  const project = /^\/(\d+)\/?$/.exec(url.pathname)?.[1];
  if (!organization || !project) return null;
  return {
    dsn,
    tunnel: `/monitoring?o=${organization}&p=${project}`,
    environment: 'prod',
    ...MONITORING_SAMPLING,
  };
}

export async function startMonitoring(dsn: string | undefined): Promise<void> {
  const options = monitoringOptions(dsn);
  if (!options) return;
  try {
    const sentry = await import('@sentry/react');
    sentry.init({
      ...options,
      integrations: [
        sentry.browserTracingIntegration(),
        sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
      ],
    });
  } catch (err) {
    // Monitoring must never break the console.
    console.warn('monitoring could not start', err);
  }
}
