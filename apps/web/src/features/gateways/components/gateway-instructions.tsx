import {
  GATEWAY_KIND_HTTP,
  GATEWAY_KIND_MQTT,
  type GatewayConnection,
  gatewayHttpUrl,
} from '@wearable/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';

/** One line to enter on the device or network server: its label, the value and a copy button. */
function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="flex flex-col gap-1 border-t border-slate-200 py-2 first:border-t-0">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="flex flex-wrap items-center gap-2">
        <code
          className="min-w-0 flex-1 font-mono text-xs break-all text-slate-900"
          data-testid={testId}
        >
          {value}
        </code>
        <Button
          variant="outline"
          onClick={() => void copy()}
          aria-label={t('gateways.instructions.copyField', { field: label })}
          data-testid={`${testId}-copy`}
        >
          {t('gateways.instructions.copy')}
        </Button>
        <span role="status" className="text-xs text-slate-700">
          {state === 'copied' && t('gateways.connection.copied')}
          {state === 'failed' && t('gateways.connection.copyFailed')}
        </span>
      </dd>
    </div>
  );
}

/**
 * What to enter on the device or network server for this gateway's kind (URL, topic,
 * authentication), each with a copy button. Paths and topics come from the domain's one table
 * (gateway-kinds.ts), the same the server's routes read.
 */
export function GatewayInstructions({ connection }: { connection: GatewayConnection }) {
  const { t } = useTranslation();
  const { kind, serverUrl, gatewayId, credential, pathSecret } = connection;
  const auth = GATEWAY_KIND_HTTP[kind].auth;
  const rows: [string, string, string][] = [];
  const row = (key: string, value: string) =>
    rows.push([t(`gateways.instructions.fields.${key}`), value, `instructions-${key}`]);
  const header = `Gateway ${gatewayId}:${credential}`;
  row('httpUrl', gatewayHttpUrl(serverUrl, kind, gatewayId, pathSecret));
  if (auth === 'gateway' || auth === 'header') {
    row('headerName', 'Authorization');
    row('headerValue', header);
  }
  if (auth === 'basic') {
    row('username', gatewayId);
    row('password', credential);
  }
  const topic = GATEWAY_KIND_MQTT[kind]?.(gatewayId);
  const broker = connection.mqttBroker;
  if (topic && broker) {
    // Where the server really takes MQTT (MQTT_URL's broker, or the embedded one on MQTT_PORT).
    row('mqttHost', broker.host);
    row('mqttPort', String(broker.port));
    row('mqttTopic', topic);
    row('mqttUsername', gatewayId);
    row('mqttPassword', credential);
    row('mqttClientId', gatewayId);
  }
  return (
    <section
      aria-labelledby="gateway-instructions-title"
      className="mt-4 rounded-md border border-slate-200 p-3"
      data-testid="gateway-instructions"
    >
      <h3 id="gateway-instructions-title" className="text-sm font-semibold text-slate-900">
        {t('gateways.instructions.title', { kind: t(`gateways.kinds.${kind}`) })}
      </h3>
      <p className="mt-1 text-sm text-slate-700" data-testid="instructions-lead">
        {t(`gateways.instructions.lead.${kind}`)}
      </p>
      <dl className="mt-2">
        {rows.map(([label, value, testId]) => (
          <CopyRow key={testId} label={label} value={value} testId={testId} />
        ))}
      </dl>
      {topic && broker && (
        <p className="mt-2 text-xs text-slate-700" data-testid="instructions-mqtt5">
          {t('gateways.instructions.mqtt5')}
        </p>
      )}
      {auth === 'path' && (
        <p className="mt-2 text-xs text-slate-700">{t('gateways.instructions.pathSecret')}</p>
      )}
    </section>
  );
}
