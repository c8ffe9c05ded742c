import type { PhoneEnrolmentResponse } from '@wearable/domain';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { useCreatePhoneEnrolment, usePhoneCarriers } from '../api/create-phone-enrolment';
import { LocalOnlyLinkWarning } from './local-only-link-warning';

type CopyState = 'idle' | 'copied' | 'failed';

/** Refusals the dialog explains in the reader's language; anything else is "could not create a code". */
const KNOWN_FAILURES = [
  'GATEWAY_NOT_SMARTPHONE',
  'GATEWAY_NOT_FOUND',
  'WEARER_NOT_FOUND',
  'FORBIDDEN',
];

/** The select's value for "shared phone" (no wearer id can be empty). */
const SHARED = '';

/** True from the moment the code expires (one timer to that moment, no polling). */
function useExpired(expiresAt: string): boolean {
  const [expired, setExpired] = useState(() => new Date(expiresAt).getTime() <= Date.now());
  useEffect(() => {
    const left = new Date(expiresAt).getTime() - Date.now();
    const timer = setTimeout(() => setExpired(true), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expired;
}

/**
 * "Connect a phone" for a SMARTPHONE gateway. First who carries the phone (a wearer, or a shared phone whose
 * person is chosen on the phone): the server pairs the phone's own bracelet to them. Then a one-time code
 * (15 minutes, single use) as a QR code and a link to /phone, with a copy button and the expiry, and
 * plainly whose SOS the phone will send. The link holds the code, never the gateway's credential.
 */
export function PhoneEnrolmentDialog({
  gateway,
  onClose,
}: {
  gateway: {
    id: string;
    name: string;
    clientId: string;
    phoneCarrier?: { shared: boolean; wearer: { id: string } | null } | undefined;
  };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreatePhoneEnrolment();
  const { mutate } = create;
  const wearers = usePhoneCarriers(gateway.clientId);
  // The carrier it had before, when it had a named one.
  const [carrier, setCarrier] = useState(() =>
    gateway.phoneCarrier && !gateway.phoneCarrier.shared && gateway.phoneCarrier.wearer
      ? gateway.phoneCarrier.wearer.id
      : SHARED,
  );
  const issue = () =>
    mutate({ gatewayId: gateway.id, wearerId: carrier === SHARED ? null : carrier });
  const enrolment = create.data;
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('phoneEnrolment.title', { name: gateway.name })}
      description={t('phoneEnrolment.lead')}
      data-testid="phone-enrolment-dialog"
    >
      <div className="grid min-w-0 grid-cols-1 gap-1">
        <label htmlFor="phone-carrier" className="text-sm font-medium text-slate-800">
          {t('phoneEnrolment.carrier')}
        </label>
        <select
          id="phone-carrier"
          value={carrier}
          disabled={create.isPending}
          onChange={(e) => {
            setCarrier(e.target.value);
            create.reset();
          }}
          className="min-h-10 w-full min-w-0 rounded-md border border-slate-400 bg-white px-2 text-sm"
          data-testid="phone-enrolment-carrier"
        >
          <option value={SHARED}>{t('phoneEnrolment.shared')}</option>
          {(wearers.data ?? []).map((w) => (
            <option key={w.uid} value={w.uid}>
              {w.groupName ? `${w.name}（${w.groupName}）` : w.name}
            </option>
          ))}
        </select>
        <p className="text-xs break-words text-slate-600">{t('phoneEnrolment.carrierHelp')}</p>
      </div>
      {!enrolment && !create.isPending && (
        <div className="mt-3">
          <Button variant="primary" onClick={issue} data-testid="phone-enrolment-create">
            {t('phoneEnrolment.create')}
          </Button>
        </div>
      )}
      {create.isPending && (
        <p role="status" className="text-sm text-slate-700" data-testid="phone-enrolment-pending">
          {t('phoneEnrolment.creating')}
        </p>
      )}
      {create.isError && <Failure error={create.error} />}
      {/* Keyed by the code: a new code starts with its own expiry and copy state. */}
      {enrolment && !create.isPending && (
        <>
          <SosFor enrolment={enrolment} />
          <Enrolment key={enrolment.code} enrolment={enrolment} />
        </>
      )}
      <p className="mt-4 text-xs text-slate-600">{t('phoneEnrolment.replaces')}</p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {enrolment && (
          <Button
            variant="outline"
            disabled={create.isPending}
            onClick={issue}
            data-testid="phone-enrolment-renew"
          >
            {t('phoneEnrolment.renew')}
          </Button>
        )}
        <Button variant="primary" onClick={onClose} data-testid="phone-enrolment-close">
          {t('phoneEnrolment.close')}
        </Button>
      </div>
    </Dialog>
  );
}

/** Plainly: whose SOS and falls this phone will send, as the server decided it. */
function SosFor({ enrolment }: { enrolment: PhoneEnrolmentResponse }) {
  const { t } = useTranslation();
  const { carrier } = enrolment;
  const own = carrier.serialNumber.startsWith('PHONE-');
  return (
    <p
      role="status"
      className="my-3 rounded-md border border-teal-300 bg-teal-50 px-3 py-2 text-sm text-teal-950"
      data-testid="phone-enrolment-sos-for"
    >
      {carrier.wearer
        ? own
          ? t('phoneEnrolment.sosFor', { name: carrier.wearer.name })
          : t('phoneEnrolment.sosForBracelet', {
              name: carrier.wearer.name,
              serial: carrier.serialNumber,
            })
        : t('phoneEnrolment.sosShared')}
    </p>
  );
}

function Failure({ error }: { error: Error }) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? (error.body?.code ?? '') : '';
  return (
    <p
      role="alert"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
      data-testid="phone-enrolment-failure"
    >
      {KNOWN_FAILURES.includes(code)
        ? t(`phoneEnrolment.errors.${code}`)
        : t('phoneEnrolment.errors.generic')}
    </p>
  );
}

function Enrolment({ enrolment }: { enrolment: PhoneEnrolmentResponse }) {
  const { t } = useTranslation();
  const expired = useExpired(enrolment.expiresAt);
  const [copy, setCopy] = useState<CopyState>('idle');
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.link);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  if (expired) {
    return (
      <p
        role="alert"
        className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
        data-testid="phone-enrolment-expired"
      >
        {t('phoneEnrolment.expired')}
      </p>
    );
  }
  return (
    <div data-testid="phone-enrolment-code">
      {enrolment.localOnlyLinks && <LocalOnlyLinkWarning url={enrolment.link} />}
      <figure className="flex flex-col items-center gap-2">
        <QRCodeSVG
          value={enrolment.link}
          size={208}
          level="M"
          marginSize={2}
          role="img"
          aria-label={t('phoneEnrolment.qrLabel')}
          data-testid="phone-enrolment-qr"
        />
        <figcaption className="text-center text-xs text-slate-600">
          {t('phoneEnrolment.qrCaption')}
        </figcaption>
      </figure>
      <p className="mt-3 text-sm text-slate-800" data-testid="phone-enrolment-expiry">
        {t('phoneEnrolment.expiresAt')} <DateTime at={enrolment.expiresAt} />
      </p>
      <label className="mt-3 block text-sm font-medium text-slate-700">
        {t('phoneEnrolment.link')}
        <input
          readOnly
          value={enrolment.link}
          onFocus={(e) => e.currentTarget.select()}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs"
          data-testid="phone-enrolment-link"
        />
      </label>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          onClick={() => void copyLink()}
          data-testid="phone-enrolment-copy"
        >
          {t('phoneEnrolment.copy')}
        </Button>
        <span
          role="status"
          className="text-sm text-slate-700"
          data-testid="phone-enrolment-copy-status"
        >
          {copy === 'copied' && t('phoneEnrolment.copied')}
          {copy === 'failed' && t('phoneEnrolment.copyFailed')}
        </span>
      </div>
    </div>
  );
}
