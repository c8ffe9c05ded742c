import {
  FALL_DETECTOR_START,
  type FallCause,
  MAN_DOWN_DEFAULTS,
  MAN_DOWN_MAX_MINUTES,
  type FallDetectorState,
  type ManDownState,
  type MotionSample,
  startManDown,
  stepFallDetector,
  stepManDown,
} from '@wearable/domain';
import { type BandReading, type BandView, Bands, hasWebBluetooth } from './bands';
import { Outbox, type OutboxStatus, type UrgentOutcome } from './outbox';
import { type CarrierProblem, chooseCarrier, loadWearers } from './carrier-call';
import {
  type Carrier,
  DEFAULT_SETTINGS,
  type Db,
  type Enrolment,
  type KnownBand,
  type Location,
  type OrgSettings,
  type Settings,
  deleteKv,
  getKv,
  setKv,
} from './store';
import { alarm } from './alarm';

export const SOS_COUNTDOWN_MS = 5000;
export const FALL_COUNTDOWN_MS = 30_000;
/** Readings carry the position at most this often. */
export const READING_LOCATION_EVERY_MS = 60_000;
/** A position older than this is not sent with an event (it would mislead). */
const LOCATION_MAX_AGE_MS = 2 * 60_000;

export type Countdown =
  | { kind: 'sos'; endsAt: number }
  | { kind: 'fall'; endsAt: number }
  | { kind: 'manDown'; endsAt: number; minutes: number };

import type { EnrolProblem } from './enrol-problem';
export type { EnrolProblem } from './enrol-problem';

export interface PhoneState {
  ready: boolean;
  enrolment: Enrolment | null;
  enrolling: boolean;
  enrolProblem: EnrolProblem | null;
  /** Set when the server refused the credential (gateway retired or credential rotated). */
  signedOut: boolean;
  outbox: OutboxStatus;
  bands: BandView[];
  bandProblem: string | null;
  settings: Settings;
  position: Location | null;
  positionProblem: 'denied' | 'unavailable' | null;
  online: boolean;
  wakeLock: 'on' | 'off' | 'unsupported';
  motion: 'off' | 'on' | 'denied' | 'unsupported';
  countdown: Countdown | null;
  /**
   * The last SOS or fall: `sending` until the server answers, `sent` only when it accepted it,
   * `failed` (refused, signed out, no answer within the retry window; still retried) with the reason.
   */
  lastEvent: {
    type: 'SOS' | 'FALL';
    at: string;
    cause?: FallCause;
    delivery: 'sending' | 'sent' | 'failed';
    reason?: string;
  } | null;
  /** The full-screen "not delivered" was closed by the worker (it comes back at the next failure). */
  failureDismissed: boolean;
  /** A shared phone's people to choose from (null until asked), and why asking failed. */
  wearers: { id: string; name: string }[] | null;
  carrierProblem: CarrierProblem | null;
  /**
   * The organisation's settings the phone follows (man-down), as the server last said them at
   * enrolment or in a batch result; null until it has said (a phone enrolled before they existed).
   */
  orgSettings: OrgSettings | null;
}

/** The organisation's settings as the server sent them, or null when they are not that shape. */
export function readOrgSettings(raw: unknown): OrgSettings | null {
  if (raw === null || typeof raw !== 'object') return null;
  const minutes = (raw as { manDownMinutes?: unknown }).manDownMinutes;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes)) return null;
  if (minutes < 0 || minutes > MAN_DOWN_MAX_MINUTES) return null;
  const phone = (raw as { emergencyPhone?: unknown }).emergencyPhone;
  const emergencyPhone =
    typeof phone === 'string' && /^\+?[0-9][0-9 -]{1,23}$/.test(phone) ? phone : null;
  return { manDownMinutes: minutes, emergencyPhone };
}

/** The `tel:` link of a number as people write it (spaces and hyphens dropped). */
export const telLink = (number: string) => `tel:${number.replace(/[^+0-9]/g, '')}`;

type DeviceMotionWithPermission = typeof DeviceMotionEvent & {
  requestPermission?: () => Promise<'granted' | 'denied'>;
};

/** The phone gateway: enrolment, outbox, bands, sensors and position, as one store the screen reads. */
export class PhoneGateway {
  private state: PhoneState = {
    ready: false,
    enrolment: null,
    enrolling: false,
    enrolProblem: null,
    signedOut: false,
    outbox: { queued: 0, lastAckAt: null, failing: false, refusals: [] },
    bands: [],
    bandProblem: null,
    settings: DEFAULT_SETTINGS,
    position: null,
    positionProblem: null,
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    wakeLock: typeof navigator !== 'undefined' && 'wakeLock' in navigator ? 'off' : 'unsupported',
    motion: typeof DeviceMotionEvent === 'undefined' ? 'unsupported' : 'off',
    countdown: null,
    lastEvent: null,
    failureDismissed: false,
    wearers: null,
    carrierProblem: null,
    orgSettings: null,
  };
  private readonly listeners = new Set<() => void>();
  private readonly outbox: Outbox;
  private readonly bands: Bands;
  private known: KnownBand[] = [];
  private watchId: number | null = null;
  private lastReadingLocationAt = 0;
  private wakeLock: WakeLockSentinel | null = null;
  private countdownTimer: ReturnType<typeof setTimeout> | null = null;
  private fall: FallDetectorState = FALL_DETECTOR_START;
  private manDown: ManDownState | null = null;

  constructor(private readonly db: Db) {
    this.outbox = new Outbox({
      db,
      enrolment: () => this.state.enrolment,
      onSignedOut: () => void this.signOut(),
      onChange: (outbox) => this.set({ outbox }),
      onSettings: (settings) => void this.followOrganisation(settings),
      onUrgent: (outcomes) => this.delivered(outcomes),
    });
    this.bands = new Bands({
      onChange: (bands) => this.set({ bands }),
      onReading: (reading) => void this.queueReading(reading),
      onHeard: (band) =>
        void this.outbox.add('pairings', {
          serialNumber: band.serialNumber,
          at: new Date().toISOString(),
        }),
      onWornChange: (band, worn) =>
        void this.outbox.add('events', {
          serialNumber: band.serialNumber,
          type: worn ? 'WORN' : 'REMOVED',
          at: new Date().toISOString(),
        }),
    });
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.state;

  private set(patch: Partial<PhoneState>): void {
    this.state = { ...this.state, ...patch };
    if (patch.lastEvent && this.db) void setKv(this.db, 'lastEvent', patch.lastEvent);
    for (const listener of this.listeners) listener();
  }

  async start(): Promise<void> {
    const [enrolment, settings, bands, signedOut, orgSettings, lastEvent] = await Promise.all([
      getKv(this.db, 'enrolment'),
      getKv(this.db, 'settings'),
      getKv(this.db, 'bands'),
      getKv(this.db, 'signedOut'),
      getKv(this.db, 'orgSettings'),
      getKv(this.db, 'lastEvent'),
    ]);
    this.known = bands ?? [];
    this.set({
      ready: true,
      enrolment: enrolment ?? null,
      signedOut: !enrolment && signedOut !== undefined,
      settings: {
        positionConsent: settings?.positionConsent ?? DEFAULT_SETTINGS.positionConsent,
        fallWatch: settings?.fallWatch ?? DEFAULT_SETTINGS.fallWatch,
      },
      orgSettings: readOrgSettings(orgSettings),
      lastEvent: lastEvent ?? null,
    });
    window.addEventListener('online', () => {
      this.set({ online: true });
      this.outbox.retryNow();
    });
    window.addEventListener('offline', () => this.set({ online: false }));
    document.addEventListener('visibilitychange', () => void this.keepAwake());
    await this.outbox.start();
    await this.enrolFromFragment();
    if (this.state.settings.positionConsent) this.watchPosition();
    if (this.needsCarrier()) void this.askWearers();
    if (this.state.enrolment) {
      if (this.manDownMinutes() > 0) await this.startMotion(false);
      await this.bands.restore(this.known);
      await this.keepAwake();
    }
  }

  // ---- Enrolment ----

  /** `/phone#enrol=<code>`: the fragment never reaches a server log; it is cleared before anything else. */
  private async enrolFromFragment(): Promise<void> {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    const code = params.get('enrol');
    if (!code) return;
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    this.set({ enrolling: true, enrolProblem: null });
    // The lazy chunk itself may fail to load (offline on a first visit).
    const outcome = await import('./enrol-call')
      .then(({ enrol }) => enrol(code))
      .catch(() => ({ ok: false as const, problem: 'offline' as const }));
    if (!outcome.ok) {
      this.set({ enrolling: false, enrolProblem: outcome.problem });
      return;
    }
    const { settings, ...answer } = outcome.value;
    const enrolment: Enrolment = { ...answer, enrolledAt: new Date().toISOString() };
    await setKv(this.db, 'enrolment', enrolment);
    await deleteKv(this.db, 'signedOut');
    this.set({ enrolling: false, enrolment, signedOut: false });
    await this.followOrganisation(settings);
    if (this.needsCarrier()) void this.askWearers();
    this.outbox.retryNow();
    await this.keepAwake();
  }

  // ---- The organisation's settings ----

  /** Man-down minutes the organisation set; 0 (off) until it says otherwise. */
  manDownMinutes(): number {
    return this.state.orgSettings?.manDownMinutes ?? 0;
  }

  /**
   * The organisation's settings, from the enrolment answer or a batch result: kept (the phone
   * follows them offline and after a reload), and man-down starts, stops or changes its minutes.
   */
  async followOrganisation(raw: unknown): Promise<void> {
    const next = readOrgSettings(raw);
    if (!next) return;
    const before = this.manDownMinutes();
    const same = this.state.orgSettings?.emergencyPhone === next.emergencyPhone;
    if (this.state.orgSettings && next.manDownMinutes === before && same) return;
    this.set({ orgSettings: next });
    await setKv(this.db, 'orgSettings', next);
    if (next.manDownMinutes === before) return;
    if (next.manDownMinutes > 0) {
      // New minutes count from now: stillness before the change was judged against the old ones.
      this.manDown = startManDown(performance.now());
      if (this.state.enrolment) await this.startMotion(false);
    } else {
      this.manDown = null;
      if (this.state.countdown?.kind === 'manDown') this.cancelCountdown();
      if (!this.state.settings.fallWatch) this.stopMotion();
    }
  }

  private async signOut(): Promise<void> {
    await deleteKv(this.db, 'enrolment');
    await setKv(this.db, 'signedOut', { at: new Date().toISOString(), status: 401 });
    this.set({ enrolment: null, signedOut: true });
  }

  // ---- Bands ----

  async addBand(): Promise<void> {
    if (!hasWebBluetooth()) return;
    try {
      const band = await this.bands.choose();
      if (!band) return;
      this.known = [...this.known.filter((b) => b.id !== band.id), band];
      await setKv(this.db, 'bands', this.known);
      this.set({ bandProblem: null });
      await this.keepAwake();
    } catch (error) {
      // The worker closed the chooser: not a problem worth a message.
      if (error instanceof DOMException && error.name === 'NotFoundError') return;
      this.set({ bandProblem: error instanceof Error ? error.message : String(error) });
    }
  }

  async removeBand(id: string): Promise<void> {
    this.bands.remove(id);
    this.known = this.known.filter((b) => b.id !== id);
    await setKv(this.db, 'bands', this.known);
  }

  // ---- Who carries the phone ----

  /** A shared phone whose person is not chosen yet: its SOS would reach nobody by name. */
  needsCarrier(): boolean {
    const carrier = this.state.enrolment?.carrier;
    return !!carrier && carrier.shared && carrier.wearer === null;
  }

  /** A shared phone: the wearers of its gateway's group, to choose who carries it. */
  async askWearers(): Promise<void> {
    const enrolment = this.state.enrolment;
    if (!enrolment) return;
    const answer = await loadWearers(enrolment);
    if (answer.ok) this.set({ wearers: answer.value, carrierProblem: null });
    else this.set({ carrierProblem: answer.problem });
  }

  /** A shared phone's person: the server re-pairs the phone's bracelet to them and says what to send for. */
  async chooseCarrier(wearerId: string): Promise<void> {
    const enrolment = this.state.enrolment;
    if (!enrolment) return;
    const answer = await chooseCarrier(enrolment, wearerId);
    if (!answer.ok) {
      this.set({ carrierProblem: answer.problem });
      return;
    }
    await this.keepCarrier(answer.value);
  }

  /** Hands a shared phone on: the next person chooses themselves. */
  async changeCarrier(): Promise<void> {
    this.set({ wearers: null });
    await this.askWearers();
  }

  private async keepCarrier(carrier: Carrier): Promise<void> {
    const enrolment = this.state.enrolment;
    if (!enrolment) return;
    const next = { ...enrolment, carrier };
    await setKv(this.db, 'enrolment', next);
    this.set({ enrolment: next, carrierProblem: null, wearers: null });
  }

  /**
   * Whose SOS and falls the phone's own sensors report: the serial the server named at enrolment (the
   * phone's own bracelet, paired to its carrier, or the carrier's own bracelet). A phone enrolled before
   * that: the first band's wearer, or the phone itself as a bracelet `PHONE-<gatewayId>`.
   */
  wearerSerial(): string | null {
    const carrier = this.state.enrolment?.carrier;
    if (carrier) return carrier.serialNumber;
    const first = this.known[0];
    if (first) return first.serialNumber;
    const enrolment = this.state.enrolment;
    return enrolment ? `PHONE-${enrolment.gatewayId}`.slice(0, 64) : null;
  }

  private async queueReading(reading: BandReading): Promise<void> {
    const now = Date.now();
    const location =
      this.state.settings.positionConsent &&
      now - this.lastReadingLocationAt >= READING_LOCATION_EVERY_MS
        ? this.freshLocation()
        : null;
    if (location) this.lastReadingLocationAt = now;
    await this.outbox.add('readings', {
      ...reading,
      at: new Date(now).toISOString(),
      ...(location ? { location } : {}),
    });
  }

  // ---- Settings ----

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    const settings = { ...this.state.settings, ...patch };
    // The switch follows the finger at once; the setting is kept on the phone meanwhile.
    this.set({ settings });
    await setKv(this.db, 'settings', settings);
    if (patch.positionConsent === true) this.watchPosition();
    if (patch.positionConsent === false) this.stopPosition();
    if (patch.fallWatch === true) await this.startMotion(true);
    if (!settings.fallWatch && this.manDownMinutes() === 0) this.stopMotion();
  }

  /** The worker's tap that lets a browser which asks (iOS) start the motion sensor for man-down. */
  async allowMotion(): Promise<void> {
    await this.startMotion(true);
  }

  // ---- Position ----

  private watchPosition(): void {
    if (this.watchId !== null || !('geolocation' in navigator)) return;
    this.watchId = navigator.geolocation.watchPosition(
      (p) =>
        this.set({
          position: {
            latitude: p.coords.latitude,
            longitude: p.coords.longitude,
            accuracy: Math.min(10_000, Math.max(0, p.coords.accuracy)),
            at: new Date(p.timestamp).toISOString(),
          },
          positionProblem: null,
        }),
      (error) =>
        this.set({
          positionProblem: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable',
        }),
      { enableHighAccuracy: true, maximumAge: 30_000 },
    );
  }

  private stopPosition(): void {
    if (this.watchId !== null) navigator.geolocation.clearWatch(this.watchId);
    this.watchId = null;
    this.set({ position: null, positionProblem: null });
  }

  private freshLocation(): Location | null {
    const position = this.state.position;
    if (!this.state.settings.positionConsent || !position) return null;
    const at = Math.min(Date.parse(position.at), Date.now());
    if (Date.now() - at > LOCATION_MAX_AGE_MS) return null;
    return { ...position, at: new Date(at).toISOString() };
  }

  // ---- SOS, fall, man-down ----

  startSosCountdown(): void {
    this.startCountdown({ kind: 'sos', endsAt: Date.now() + SOS_COUNTDOWN_MS });
  }

  private startCountdown(countdown: Countdown): void {
    if (this.state.countdown?.kind === 'sos' && countdown.kind !== 'sos') return;
    if (this.countdownTimer) clearTimeout(this.countdownTimer);
    this.set({ countdown });
    if (countdown.kind !== 'sos') alarm.start();
    this.countdownTimer = setTimeout(
      () => void this.countdownEnded(),
      countdown.endsAt - Date.now(),
    );
  }

  /** One tap: SOS not sent, or "I'm all right". */
  cancelCountdown(): void {
    if (this.countdownTimer) clearTimeout(this.countdownTimer);
    this.countdownTimer = null;
    alarm.stop();
    this.set({ countdown: null });
    this.fall = FALL_DETECTOR_START;
    if (this.manDownMinutes() > 0) this.manDown = startManDown(performance.now());
  }

  private async countdownEnded(): Promise<void> {
    const countdown = this.state.countdown;
    this.countdownTimer = null;
    alarm.stop();
    this.set({ countdown: null });
    if (!countdown) return;
    if (countdown.kind === 'sos') await this.sendUrgent('SOS');
    else if (countdown.kind === 'fall') await this.sendUrgent('FALL', { trigger: 'impact' });
    else await this.sendUrgent('FALL', { trigger: 'man-down', stillMinutes: countdown.minutes });
  }

  /** SOS, or FALL with its cause (the protocol's `cause`: an impact, or man-down and its minutes). */
  private async sendUrgent(type: 'SOS' | 'FALL', cause?: FallCause): Promise<void> {
    const serialNumber = this.wearerSerial();
    if (!serialNumber) return;
    const at = new Date().toISOString();
    const location = this.freshLocation();
    await this.outbox.add(
      'events',
      {
        serialNumber,
        type,
        at,
        ...(cause ? { cause } : {}),
        ...(location ? { location } : {}),
      },
      true,
    );
    this.set({
      lastEvent: { type, at, ...(cause ? { cause } : {}), delivery: 'sending' },
      failureDismissed: false,
    });
  }

  /** The server's word on an SOS or fall: "sent" only for one it accepted; a failure is shown full screen. */
  private delivered(outcomes: UrgentOutcome[]): void {
    const last = this.state.lastEvent;
    if (!last) return;
    const mine = outcomes.find((o) => o.event.type === last.type && o.event.at === last.at);
    if (!mine) return;
    if (mine.delivered) {
      this.set({ lastEvent: { ...last, delivery: 'sent' } });
      return;
    }
    const changed = last.delivery !== 'failed' || last.reason !== mine.reason;
    this.set({
      lastEvent: { ...last, delivery: 'failed', reason: mine.reason ?? '' },
      ...(changed && last.delivery !== 'failed' ? { failureDismissed: false } : {}),
    });
  }

  /** The worker closed the full-screen failure (sending goes on; the line above SOS still says it). */
  dismissFailure(): void {
    this.set({ failureDismissed: true });
  }

  /**
   * Starts the motion sensor. `fromTap`: called from the worker's tap (a switch, a button). A browser
   * that asks for motion access (iOS) asks only from a tap, so without one it waits for the worker's
   * "allow" (the screen offers it while man-down is on and the sensor is off).
   */
  private async startMotion(fromTap: boolean): Promise<void> {
    if (this.state.motion === 'on' || this.state.motion === 'unsupported') return;
    const request = (DeviceMotionEvent as DeviceMotionWithPermission).requestPermission;
    if (request) {
      if (!fromTap) return;
      const answer = await request().catch(() => 'denied' as const);
      if (answer !== 'granted') {
        this.set({ motion: 'denied' });
        return;
      }
    }
    window.addEventListener('devicemotion', this.onMotion);
    this.fall = FALL_DETECTOR_START;
    if (this.manDownMinutes() > 0) this.manDown = startManDown(performance.now());
    this.set({ motion: 'on' });
    await this.keepAwake();
  }

  private stopMotion(): void {
    window.removeEventListener('devicemotion', this.onMotion);
    this.manDown = null;
    if (this.state.motion === 'on') this.set({ motion: 'off' });
  }

  private readonly onMotion = (event: DeviceMotionEvent): void => {
    const a = event.accelerationIncludingGravity;
    const sample: MotionSample = {
      t: event.timeStamp,
      x: a?.x ?? Number.NaN,
      y: a?.y ?? Number.NaN,
      z: a?.z ?? Number.NaN,
    };
    if (this.state.countdown) return;
    const { settings } = this.state;
    if (settings.fallWatch) {
      const step = stepFallDetector(this.fall, sample);
      this.fall = step.state;
      if (step.fall) {
        this.startCountdown({ kind: 'fall', endsAt: Date.now() + FALL_COUNTDOWN_MS });
        return;
      }
    }
    const stillMinutes = this.manDownMinutes();
    if (stillMinutes > 0 && this.manDown) {
      const step = stepManDown(this.manDown, sample, { ...MAN_DOWN_DEFAULTS, stillMinutes });
      this.manDown = step.state;
      if (step.manDown)
        this.startCountdown({
          kind: 'manDown',
          endsAt: Date.now() + FALL_COUNTDOWN_MS,
          minutes: step.manDown.minutes,
        });
    }
  };

  // ---- Screen ----

  /** Keeps the screen on while the page is open and enrolled (the lock is released when the page hides). */
  private async keepAwake(): Promise<void> {
    if (this.state.wakeLock === 'unsupported') return;
    if (document.visibilityState !== 'visible' || !this.state.enrolment) return;
    if (this.wakeLock && !this.wakeLock.released) return;
    try {
      this.wakeLock = await navigator.wakeLock.request('screen');
      this.set({ wakeLock: 'on' });
      this.wakeLock.addEventListener('release', () => this.set({ wakeLock: 'off' }));
    } catch {
      this.set({ wakeLock: 'off' });
    }
  }
}
