import { SOUND_LOAD_TIMEOUT_MS, type AlertLevel } from '@wearable/domain';
import { audioContextClass, takeEarlyAudio } from '../../../lib/early-audio';
import { ALERT_TONES } from './alert-tones';

/**
 * Whether this tab can sound an alert now. `off`: the browser holds the audio back until a user gesture (its
 * autoplay policy: the AudioContext is `suspended`), or it failed; `unsupported`: no Web Audio at all.
 */
export type AlertSoundState = 'unsupported' | 'off' | 'on';

/** sessionStorage: this tab had sound on, so a reload tries to resume it at once (the browser may still refuse). */
export const ALERT_SOUND_KEY = 'alertSound';

// One AudioContext per tab, as browsers advise; its state is the truth about whether sound can play.
let context: AudioContext | null = null;
let broken = false;
let interacted = false;
const listeners = new Set<() => void>();

const emit = () => listeners.forEach((listener) => listener());

function remember(): void {
  try {
    window.sessionStorage.setItem(ALERT_SOUND_KEY, 'on');
  } catch {
    // A blocked storage only means a reload asks again.
  }
}

function remembered(): boolean {
  try {
    return window.sessionStorage.getItem(ALERT_SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

function audio(): AudioContext | null {
  if (context !== null || broken) return context;
  const Ctx = audioContextClass();
  if (Ctx === null) return null;
  try {
    context = takeEarlyAudio() ?? new Ctx();
  } catch {
    broken = true;
    return null;
  }
  context.onstatechange = () => {
    if (context?.state === 'running') {
      remember();
      // A first pointer press unlocks the audio and its click follows: what sound being on adds to the header
      // (the ringing alerts' band) comes only after that click, so the page does not shift under it (the click
      // missed its button). The sound band itself keeps its height (SoundControl).
      setTimeout(emit, 500);
      return;
    }
    emit();
  };
  if (context.state === 'running') remember();
  return context;
}

/** What the header's sound control reads (never "on" unless the AudioContext runs). */
export function alertSoundState(): AlertSoundState {
  if (audioContextClass() === null) return 'unsupported';
  return context?.state === 'running' ? 'on' : 'off';
}

export function subscribeAlertSound(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function resume(ctx: AudioContext): void {
  // Chromium keeps a resume outside a gesture pending; a refusal is the same as "still off".
  ctx.resume().then(emit, emit);
}

/**
 * Browsers only allow sound after the person has interacted with the page: every pointer press or key until the
 * audio runs resumes it (from within the gesture). Creates the tab's AudioContext at once, so its real state is
 * known before anyone clicks; a tab that had sound on (sessionStorage) asks to resume at once too.
 */
export function armAlertSound(): () => void {
  const ctx = audio();
  if (ctx !== null && ctx.state !== 'running' && remembered()) resume(ctx);
  emit();
  const arm = () => {
    interacted = true;
    const current = audio();
    if (current === null || current.state === 'running') remove();
    else resume(current);
  };
  const remove = () => {
    window.removeEventListener('pointerdown', arm);
    window.removeEventListener('keydown', arm);
  };
  window.addEventListener('pointerdown', arm);
  window.addEventListener('keydown', arm);
  return remove;
}

/** The header control's action, run inside its click: resumes the audio and remembers the choice for this tab. */
export async function enableAlertSound(): Promise<boolean> {
  interacted = true;
  const ctx = audio();
  if (ctx === null) return false;
  try {
    if (ctx.state !== 'running') await withTimeout(ctx.resume(), SOUND_LOAD_TIMEOUT_MS);
  } catch {
    // Still off: the control stays.
  }
  emit();
  if (alertSoundState() !== 'on') return false;
  remember();
  return true;
}

export const soundArmed = (): boolean => alertSoundState() === 'on';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('sound timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The level's pattern (ALERT_TONES) made with WebAudio (no file to load). Plays only after a first interaction or
 * when the browser let the audio run; getting it ready may take at most 5 s; every failure is swallowed.
 */
export async function playAlertSound(level: AlertLevel = 'CRITICAL'): Promise<boolean> {
  try {
    const ctx = audio();
    if (ctx === null) return false;
    if (ctx.state !== 'running') {
      if (!interacted) return false;
      await withTimeout(ctx.resume(), SOUND_LOAD_TIMEOUT_MS);
      if ((ctx.state as AudioContextState) !== 'running') return false;
    }
    const start = ctx.currentTime;
    for (const { at, frequency, length } of ALERT_TONES[level].notes) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.2, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
    return true;
  } catch {
    return false;
  }
}
