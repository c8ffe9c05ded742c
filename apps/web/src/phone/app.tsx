import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { type BandView, hasWebBluetooth } from './bands';
import { type Countdown, type PhoneGateway, type PhoneState, telLink } from './gateway';

export const SOS_HOLD_MS = 2000;

function useClock(language: string) {
  return (ms: number | string) =>
    new Date(ms).toLocaleTimeString(language, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
}

export function PhoneApp({ gateway }: { gateway: PhoneGateway }) {
  const state = useSyncExternalStore(gateway.subscribe, gateway.snapshot);
  const { t, i18n } = useTranslation();
  const other = i18n.language === 'en' ? 'ja' : 'en';
  return (
    <div className="mx-auto flex min-h-dvh max-w-md flex-col">
      <header className="flex items-center justify-between gap-2 bg-teal-700 px-4 py-3 text-white">
        <h1 className="text-lg font-bold">{t('title')}</h1>
        <button
          type="button"
          lang={other}
          className="min-h-11 rounded-md border border-white/70 px-3 text-sm"
          onClick={() => void i18n.changeLanguage(other)}
        >
          {t('language')}
        </button>
      </header>
      {!state.ready ? (
        <main className="p-4">
          <p role="status">{t('loading')}</p>
        </main>
      ) : state.enrolment ? (
        <Enrolled gateway={gateway} state={state} />
      ) : (
        <NotEnrolled state={state} />
      )}
      {state.countdown ? (
        <CountdownDialog countdown={state.countdown} onCancel={() => gateway.cancelCountdown()} />
      ) : state.lastEvent?.delivery === 'failed' && !state.failureDismissed ? (
        <NotDeliveredDialog state={state} onClose={() => gateway.dismissFailure()} />
      ) : null}
    </div>
  );
}

function NotEnrolled({ state }: { state: PhoneState }) {
  const { t } = useTranslation();
  return (
    <main className="flex flex-col gap-4 p-4">
      <h2 className="text-xl font-bold">{t('enrol.heading')}</h2>
      {state.enrolling ? <p role="status">{t('enrol.working')}</p> : null}
      {state.enrolProblem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
          {t(`enrol.${state.enrolProblem}`)}
        </p>
      ) : null}
      {state.lastEvent?.delivery === 'failed' ? (
        <div className="grid gap-2">
          <p role="status" className="font-bold text-red-800" data-testid="last-event">
            {t('failure.title', {
              type: state.lastEvent.type === 'SOS' ? 'SOS' : t('failure.fall'),
            })}
          </p>
          <CallNow emergencyPhone={state.orgSettings?.emergencyPhone ?? null} />
        </div>
      ) : null}
      {state.signedOut && !state.enrolProblem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
          {t('enrol.signedOut')}
        </p>
      ) : null}
      <p>{t('enrol.how')}</p>
    </main>
  );
}

function Enrolled({ gateway, state }: { gateway: PhoneGateway; state: PhoneState }) {
  const { t, i18n } = useTranslation();
  const clock = useClock(i18n.language);
  const enrolment = state.enrolment!;
  const { outbox } = state;
  return (
    <>
      <main className="flex flex-col gap-4 p-4 pb-32">
        <section aria-labelledby="status-heading" className="rounded-lg bg-white p-3 shadow-sm">
          <h2 id="status-heading" className="font-bold">
            {t('status.heading')}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
            <dt className="text-slate-600">{t('status.organization')}</dt>
            <dd data-testid="organization">{enrolment.organization.name}</dd>
            <dt className="text-slate-600">{t('status.group')}</dt>
            <dd>{enrolment.group?.name ?? t('status.noGroup')}</dd>
            <dt className="text-slate-600">{t('status.gateway')}</dt>
            <dd data-testid="gateway-name">{enrolment.gatewayName}</dd>
            <dt className="text-slate-600">{t('status.queue')}</dt>
            <dd data-testid="queue-length">{t('status.queueCount', { count: outbox.queued })}</dd>
            <dt className="text-slate-600">{t('status.lastAck')}</dt>
            <dd data-testid="last-ack">
              {outbox.lastAckAt
                ? new Date(outbox.lastAckAt).toLocaleTimeString(i18n.language, { hourCycle: 'h23' })
                : t('status.never')}
            </dd>
          </dl>
          <p role="status" className="mt-2 text-sm">
            {state.online ? t('status.online') : t('status.offline')}
          </p>
          {outbox.failing && state.online ? (
            <p className="text-sm text-amber-800">{t('status.failing')}</p>
          ) : null}
          {state.wakeLock !== 'unsupported' ? (
            <p className="text-sm text-slate-600">
              {state.wakeLock === 'on' ? t('status.awake') : t('status.notAwake')}
            </p>
          ) : null}
          {outbox.refusals.length > 0 ? (
            <div className="mt-2 text-sm text-red-800">
              <p>{t('status.refused')}</p>
              <ul className="list-disc pl-5 break-all">
                {outbox.refusals.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>

        <Carrier gateway={gateway} state={state} />
        <Bands gateway={gateway} state={state} clock={clock} />
        <Safety gateway={gateway} state={state} />
        <Position gateway={gateway} state={state} />
      </main>
      <SosButton gateway={gateway} state={state} clock={clock} />
    </>
  );
}

/**
 * Who carries the phone: its SOS and falls are sent for them. A shared phone asks for its person
 * (the wearers of its gateway's group) before anything else, and can be handed on.
 */
function Carrier({ gateway, state }: { gateway: PhoneGateway; state: PhoneState }) {
  const { t } = useTranslation();
  const carrier = state.enrolment?.carrier;
  const [chosen, setChosen] = useState('');
  if (!carrier) return null;
  const choosing = carrier.shared && (carrier.wearer === null || state.wearers !== null);
  return (
    <section
      aria-labelledby="carrier-heading"
      className={`rounded-lg p-3 shadow-sm ${carrier.wearer === null ? 'border-2 border-red-700 bg-red-50' : 'bg-white'}`}
      data-testid="carrier"
    >
      <h2 id="carrier-heading" className="font-bold">
        {t('carrier.heading')}
      </h2>
      {carrier.wearer ? (
        <p data-testid="carrier-name">{t('carrier.for', { name: carrier.wearer.name })}</p>
      ) : (
        <p role="alert" className="font-medium text-red-800">
          {t('carrier.nobody')}
        </p>
      )}
      {choosing ? (
        <form
          className="mt-2 grid grid-cols-[minmax(0,1fr)] gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) void gateway.chooseCarrier(chosen);
          }}
        >
          <label htmlFor="carrier-select" className="text-sm font-medium">
            {t('carrier.choose')}
          </label>
          <select
            id="carrier-select"
            // As wide as the screen whatever the longest name (a select is otherwise as wide as its widest option).
            className="min-h-12 w-full min-w-0 rounded-md border border-slate-500 bg-white px-2"
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
          >
            <option value="">
              {state.wearers === null ? t('carrier.loading') : t('carrier.pick')}
            </option>
            {(state.wearers ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            disabled={!chosen}
            className="min-h-12 rounded-md bg-teal-700 font-bold text-white disabled:bg-slate-400"
          >
            {t('carrier.confirm')}
          </button>
          {state.wearers?.length === 0 ? <p className="text-sm">{t('carrier.none')}</p> : null}
        </form>
      ) : carrier.shared ? (
        <button
          type="button"
          className="mt-2 min-h-11 rounded-md border border-slate-500 px-3"
          onClick={() => void gateway.changeCarrier()}
        >
          {t('carrier.handOver')}
        </button>
      ) : null}
      {state.carrierProblem ? (
        <p role="alert" className="mt-1 text-sm text-red-800">
          {t(`carrier.problem.${state.carrierProblem}`)}
        </p>
      ) : null}
    </section>
  );
}

/** The numbers to call now: 119 always, the site's own number when the organisation set one. */
function CallNow({ emergencyPhone, light }: { emergencyPhone: string | null; light?: boolean }) {
  const { t } = useTranslation();
  const link = light
    ? 'flex min-h-16 items-center justify-center rounded-2xl bg-white px-4 text-2xl font-bold text-red-800'
    : 'flex min-h-12 items-center justify-center rounded-md bg-red-700 px-4 font-bold text-white';
  return (
    <div className="grid w-full gap-3">
      <a href="tel:119" className={link} data-testid="call-119">
        {t('failure.call119')}
      </a>
      {emergencyPhone ? (
        <a href={telLink(emergencyPhone)} className={link} data-testid="call-site">
          {t('failure.callSite', { number: emergencyPhone })}
        </a>
      ) : null}
    </div>
  );
}

/** Full screen: the SOS or fall did NOT reach anyone. What to do now comes first. */
function NotDeliveredDialog({ state, onClose }: { state: PhoneState; onClose: () => void }) {
  const { t } = useTranslation();
  const event = state.lastEvent!;
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  const type = event.type === 'SOS' ? 'SOS' : t('failure.fall');
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="failure-title"
      aria-describedby="failure-text"
      className="fixed inset-0 z-10 flex flex-col items-center justify-center gap-5 overflow-y-auto bg-red-900 p-6 text-center text-white"
      data-testid="not-delivered"
    >
      <h2 id="failure-title" className="text-3xl font-bold">
        {t('failure.title', { type })}
      </h2>
      <p id="failure-text" className="text-xl">
        {t('failure.callNow')}
      </p>
      <CallNow emergencyPhone={state.orgSettings?.emergencyPhone ?? null} light />
      <p className="text-base">
        {state.enrolment ? t('failure.retrying') : t('failure.signedOut')}
      </p>
      <p className="text-sm break-all opacity-90" data-testid="failure-reason">
        {t('failure.reason', { reason: event.reason ?? '' })}
      </p>
      <button
        ref={close}
        type="button"
        className="min-h-12 w-full max-w-sm rounded-xl border-2 border-white text-lg font-bold"
        onClick={onClose}
      >
        {t('failure.close')}
      </button>
    </div>
  );
}

function Bands({
  gateway,
  state,
  clock,
}: {
  gateway: PhoneGateway;
  state: PhoneState;
  clock: (ms: number) => string;
}) {
  const { t } = useTranslation();
  if (!hasWebBluetooth())
    return (
      <section aria-labelledby="bands-heading" className="rounded-lg bg-white p-3 shadow-sm">
        <h2 id="bands-heading" className="font-bold">
          {t('bands.heading')}
        </h2>
        <p className="text-sm">{t('bands.unsupported')}</p>
      </section>
    );
  return (
    <section aria-labelledby="bands-heading" className="rounded-lg bg-white p-3 shadow-sm">
      <h2 id="bands-heading" className="font-bold">
        {t('bands.heading')}
      </h2>
      {state.bands.length === 0 ? <p className="text-sm">{t('bands.none')}</p> : null}
      <ul className="flex flex-col gap-2">
        {state.bands.map((band) => (
          <BandItem
            key={band.id}
            band={band}
            clock={clock}
            onRemove={() => void gateway.removeBand(band.id)}
          />
        ))}
      </ul>
      {state.bandProblem ? (
        <p role="alert" className="text-sm text-red-800">
          {state.bandProblem}
        </p>
      ) : null}
      <button
        type="button"
        className="mt-2 min-h-12 w-full rounded-md bg-teal-700 font-bold text-white"
        onClick={() => void gateway.addBand()}
      >
        {t('bands.add')}
      </button>
    </section>
  );
}

function BandItem({
  band,
  clock,
  onRemove,
}: {
  band: BandView;
  clock: (ms: number) => string;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const time = band.since ? clock(band.since) : '';
  const status = {
    connecting: t('bands.connecting'),
    connected: t('bands.connected'),
    reconnecting: t('bands.reconnecting', { time }),
    lost: t('bands.lost', { time }),
  }[band.status];
  const name = band.name || band.serialNumber;
  return (
    <li className="rounded-md border border-slate-200 p-2" data-testid="band">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-bold">{name}</p>
          <p
            role="status"
            data-testid="band-status"
            className={band.status === 'connected' ? 'text-green-800' : 'text-red-800'}
          >
            {status}
          </p>
        </div>
        <button
          type="button"
          className="min-h-11 shrink-0 rounded-md border border-slate-400 px-3 text-sm"
          aria-label={t('bands.remove', { name })}
          onClick={onRemove}
        >
          ×
        </button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-slate-600">{t('bands.heartRate')}</dt>
        <dd data-testid="band-heart-rate">
          {band.worn === false
            ? t('bands.notWorn')
            : band.heartRate === null
              ? '–'
              : t('bands.bpm', { value: band.heartRate })}
        </dd>
        {band.battery !== null ? (
          <>
            <dt className="text-slate-600">{t('bands.battery')}</dt>
            <dd>{band.battery} %</dd>
          </>
        ) : null}
        {band.skinTemperature !== null ? (
          <>
            <dt className="text-slate-600">{t('bands.temperature')}</dt>
            <dd>{band.skinTemperature.toFixed(1)} °C</dd>
          </>
        ) : null}
        <dt className="text-slate-600">{t('bands.serial')}</dt>
        <dd className="font-mono break-all" data-testid="band-serial">
          {band.serialNumber}
        </dd>
      </dl>
      <p className="text-xs text-slate-600">{t('bands.serialHelp')}</p>
      {band.lastRefusal ? (
        <p className="text-sm text-red-800">{t('bands.refused', { reason: band.lastRefusal })}</p>
      ) : null}
    </li>
  );
}

function Toggle({
  id,
  checked,
  label,
  onChange,
}: {
  id: string;
  checked: boolean;
  label: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label htmlFor={id} className="flex min-h-11 items-center gap-3">
      <input
        id={id}
        type="checkbox"
        className="size-6 shrink-0 accent-teal-700"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

function Safety({ gateway, state }: { gateway: PhoneGateway; state: PhoneState }) {
  const { t } = useTranslation();
  const { settings } = state;
  const serial = gateway.wearerSerial();
  return (
    <section aria-labelledby="safety-heading" className="rounded-lg bg-white p-3 shadow-sm">
      <h2 id="safety-heading" className="font-bold">
        {t('safety.heading')}
      </h2>
      {serial ? (
        <p className="text-sm break-all" data-testid="reports-for">
          {t('safety.reportsFor', { serial })}
        </p>
      ) : null}
      {state.motion === 'unsupported' ? (
        <p className="text-sm">{t('safety.motionUnsupported')}</p>
      ) : (
        <>
          <Toggle
            id="fall-watch"
            checked={settings.fallWatch}
            label={t('safety.fall')}
            onChange={(fallWatch) => void gateway.updateSettings({ fallWatch })}
          />
          <p className="text-xs text-slate-600">{t('safety.fallHelp')}</p>
          <ManDown gateway={gateway} state={state} />
          {state.motion === 'denied' ? (
            <p role="alert" className="text-sm text-red-800">
              {t('safety.motionDenied')}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * Man-down follows the organisation (its alert policy, sent at enrolment and with every batch
 * result): the screen says whether it is on and after how many minutes, and offers the tap a
 * browser that asks for motion access (iOS) needs.
 */
function ManDown({ gateway, state }: { gateway: PhoneGateway; state: PhoneState }) {
  const { t } = useTranslation();
  const minutes = state.orgSettings?.manDownMinutes ?? 0;
  const text =
    state.orgSettings === null
      ? t('safety.manDownUnknown')
      : minutes > 0
        ? t('safety.manDownOn', { minutes })
        : t('safety.manDownOff');
  return (
    <div className="grid gap-2 py-1">
      <p className="font-medium">{t('safety.manDown')}</p>
      <p className="text-sm" data-testid="man-down-status">
        {text}
      </p>
      {minutes > 0 && state.motion === 'off' ? (
        <button
          type="button"
          className="min-h-11 rounded-md border border-slate-500 px-3 font-medium"
          onClick={() => void gateway.allowMotion()}
          data-testid="man-down-allow"
        >
          {t('safety.manDownAllow')}
        </button>
      ) : null}
    </div>
  );
}

function Position({ gateway, state }: { gateway: PhoneGateway; state: PhoneState }) {
  const { t } = useTranslation();
  const consent = state.settings.positionConsent;
  return (
    <section aria-labelledby="position-heading" className="rounded-lg bg-white p-3 shadow-sm">
      <h2 id="position-heading" className="font-bold">
        {t('position.heading')}
      </h2>
      <Toggle
        id="position-consent"
        checked={consent}
        label={t('position.consent')}
        onChange={(positionConsent) => void gateway.updateSettings({ positionConsent })}
      />
      <p className="text-xs text-slate-600">{t('position.help')}</p>
      {consent ? (
        <p className="text-sm" data-testid="position">
          {state.positionProblem
            ? t(`position.${state.positionProblem}`)
            : state.position
              ? t('position.current', { accuracy: Math.round(state.position.accuracy) })
              : t('position.waiting')}
        </p>
      ) : null}
    </section>
  );
}

function SosButton({
  gateway,
  state,
  clock,
}: {
  gateway: PhoneGateway;
  state: PhoneState;
  clock: (ms: string) => string;
}) {
  const { t } = useTranslation();
  const { lastEvent } = state;
  const [holding, setHolding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const press = () => {
    if (timer.current) return;
    setHolding(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setHolding(false);
      gateway.startSosCountdown();
    }, SOS_HOLD_MS);
  };
  const release = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setHolding(false);
  };
  return (
    <div className="fixed inset-x-0 bottom-0 mx-auto max-w-md bg-slate-50/95 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
      {lastEvent ? (
        <p
          role="status"
          className={`mb-1 text-center text-sm ${lastEvent.delivery === 'failed' ? 'font-bold text-red-800' : ''}`}
          data-testid="last-event"
        >
          {t(`sos.${lastEvent.delivery}`, { type: lastEvent.type, time: clock(lastEvent.at) })}
        </p>
      ) : null}
      {lastEvent?.delivery === 'failed' ? (
        <div className="mb-2">
          <CallNow emergencyPhone={state.orgSettings?.emergencyPhone ?? null} />
        </div>
      ) : null}
      <button
        type="button"
        className="relative h-20 w-full touch-none overflow-hidden rounded-full bg-red-700 text-xl font-bold text-white select-none"
        onPointerDown={press}
        onPointerUp={release}
        onPointerLeave={release}
        onPointerCancel={release}
        onContextMenu={(e) => e.preventDefault()}
        onKeyDown={(e) => {
          if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
            e.preventDefault();
            press();
          }
        }}
        onKeyUp={release}
        onBlur={release}
      >
        <span
          aria-hidden="true"
          className="absolute inset-y-0 left-0 bg-red-950/40"
          style={{
            width: holding ? '100%' : '0%',
            transition: holding ? `width ${SOS_HOLD_MS}ms linear` : 'none',
          }}
        />
        <span className="relative">{holding ? t('sos.holding') : t('sos.hold')}</span>
      </button>
    </div>
  );
}

function CountdownDialog({ countdown, onCancel }: { countdown: Countdown; onCancel: () => void }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
    const tick = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(tick);
  }, [countdown]);
  const seconds = Math.max(0, Math.ceil((countdown.endsAt - now) / 1000));
  const sos = countdown.kind === 'sos';
  const text = sos
    ? t('sos.countdown', { seconds })
    : countdown.kind === 'fall'
      ? t('fall.fallDetected', { seconds })
      : t('fall.manDownDetected', { seconds, minutes: countdown.minutes });
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="countdown-title"
      aria-describedby="countdown-text"
      className="fixed inset-0 z-10 flex flex-col items-center justify-center gap-6 bg-red-800 p-6 text-center text-white"
    >
      <h2 id="countdown-title" className="text-3xl font-bold">
        {sos ? 'SOS' : t('fall.question')}
      </h2>
      <p id="countdown-text" className="text-xl" data-testid="countdown">
        {text}
      </p>
      <button
        ref={cancel}
        type="button"
        className="min-h-24 w-full max-w-sm rounded-2xl bg-white text-2xl font-bold text-red-800"
        onClick={onCancel}
      >
        {sos ? t('sos.cancel') : t('fall.ok')}
      </button>
    </div>
  );
}
