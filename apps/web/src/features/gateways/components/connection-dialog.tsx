import type { GatewayConnection } from '@wearable/domain';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { GatewayInstructions } from './gateway-instructions';
import { LocalOnlyLinkWarning } from './local-only-link-warning';

/** What the QR code holds: everything a gateway needs to connect, as JSON (docs/gateway-protocol.md). */
export const connectionPayload = (c: GatewayConnection) =>
  JSON.stringify({
    serverUrl: c.serverUrl,
    gatewayId: c.gatewayId,
    credential: c.credential,
    mqttTopic: c.mqttTopic,
    mqttResultsTopic: c.mqttResultsTopic,
  });

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The credential, shown this once (the server keeps only its hash): a copy button and a QR code for the gateway.
 * It closes only through its button, so a stray Escape or click does not lose the credential.
 */
export function ConnectionDialog({
  connection,
  gatewayName,
  rotated,
  onClose,
}: {
  connection: GatewayConnection;
  gatewayName: string;
  rotated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<CopyState>('idle');
  const copyCredential = async () => {
    try {
      await navigator.clipboard.writeText(connection.credential);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const rows: [string, string, string][] = [
    [t('gateways.connection.serverUrl'), connection.serverUrl, 'connection-server-url'],
    [t('gateways.connection.gatewayId'), connection.gatewayId, 'connection-gateway-id'],
    ...(connection.kind === 'native' && connection.mqttTopic !== null
      ? [
          [t('gateways.connection.mqttTopic'), connection.mqttTopic, 'connection-mqtt-topic'] as [
            string,
            string,
            string,
          ],
        ]
      : []),
  ];
  return (
    <Dialog
      open
      blocking
      title={t(rotated ? 'gateways.connection.rotatedTitle' : 'gateways.connection.title', {
        name: gatewayName,
      })}
      description={t('gateways.connection.once')}
      data-testid="connection-dialog"
    >
      {connection.localOnlyLinks && <LocalOnlyLinkWarning url={connection.serverUrl} />}
      <label className="block text-sm font-medium text-slate-700">
        {t('gateways.connection.credential')}
        <input
          readOnly
          value={connection.credential}
          onFocus={(e) => e.currentTarget.select()}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm"
          data-testid="connection-credential"
        />
      </label>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          onClick={() => void copyCredential()}
          data-testid="connection-copy"
        >
          {t('gateways.connection.copy')}
        </Button>
        <span role="status" className="text-sm text-slate-700" data-testid="connection-copy-status">
          {copy === 'copied' && t('gateways.connection.copied')}
          {copy === 'failed' && t('gateways.connection.copyFailed')}
        </span>
      </div>
      <dl className="mt-4 space-y-1 text-sm">
        {rows.map(([label, value, testId]) => (
          <div key={testId}>
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-mono text-xs break-all text-slate-900" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <GatewayInstructions connection={connection} />
      {connection.kind === 'native' && (
        <figure className="mt-4 flex flex-col items-center gap-2">
          <QRCodeSVG
            value={connectionPayload(connection)}
            size={200}
            level="M"
            marginSize={2}
            role="img"
            aria-label={t('gateways.connection.qrLabel')}
            data-testid="connection-qr"
          />
          <figcaption className="text-center text-xs text-slate-600">
            {t('gateways.connection.qrCaption')}
          </figcaption>
        </figure>
      )}
      <div className="mt-4 flex justify-end">
        <Button variant="primary" onClick={onClose} data-testid="connection-done">
          {t('gateways.connection.done')}
        </Button>
      </div>
    </Dialog>
  );
}
