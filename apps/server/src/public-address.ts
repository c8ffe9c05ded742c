import type { Config } from './config.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** A host name or address that only this machine reaches. */
export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Links the server hands out for another device (the phone enrolment QR code, a gateway's URL, SMS and mail)
 * that open only on the device that follows them: PUBLIC_URL names this machine (the default
 * http://localhost:PORT). The dialogs that hand one out say so (issue 35).
 */
export const linksReachOnlyThisMachine = (config: Pick<Config, 'publicUrl'>): boolean =>
  isLoopbackHost(new URL(config.publicUrl).hostname);

/**
 * Where a gateway publishes over MQTT: the external broker of MQTT_URL (its host, unless that names this
 * machine, then PUBLIC_URL's host), or the embedded broker on MQTT_PORT at PUBLIC_URL's host; null when the
 * server takes no MQTT (MQTT_PORT=0 and no MQTT_URL).
 */
export function mqttBrokerAddress(
  config: Pick<Config, 'publicUrl' | 'mqttUrl' | 'mqttPort'>,
): { host: string; port: number } | null {
  const publicHost = new URL(config.publicUrl).hostname;
  if (config.mqttUrl) {
    const url = new URL(config.mqttUrl);
    const secure = url.protocol === 'mqtts:' || url.protocol === 'wss:';
    const port = url.port ? Number(url.port) : secure ? 8883 : 1883;
    return { host: isLoopbackHost(url.hostname) ? publicHost : url.hostname, port };
  }
  if (config.mqttPort === 0) return null;
  return { host: publicHost, port: config.mqttPort };
}
