import { SOUND_LOAD_TIMEOUT_MS } from '@wearable/domain';

type AudioContextClass = typeof AudioContext;

let context: AudioContext | null = null;
let interacted = false;

function audioContextClass(): AudioContextClass | null {
  const w = window as typeof window & { webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/** Browsers only allow sound after the person has interacted with the page: remember the first interaction. */
export function armAlertSound(): () => void {
  const arm = () => {
    interacted = true;
    remove();
  };
  const remove = () => {
    window.removeEventListener('pointerdown', arm);
    window.removeEventListener('keydown', arm);
  };
  window.addEventListener('pointerdown', arm);
  window.addEventListener('keydown', arm);
  return remove;
}

export const soundArmed = (): boolean => interacted;

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
 * Two short soft tones made with WebAudio (no file to load). Plays only after a first interaction;
 * getting the audio ready may take at most 5 s; every failure is swallowed.
 */
export async function playAlertSound(): Promise<boolean> {
  if (!interacted) return false;
  try {
    const Ctx = audioContextClass();
    if (Ctx === null) return false;
    context ??= new Ctx();
    const ctx = context;
    if (ctx.state === 'suspended') await withTimeout(ctx.resume(), SOUND_LOAD_TIMEOUT_MS);
    const start = ctx.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.25, 660],
    ] as const) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.2);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.22);
    }
    return true;
  } catch {
    return false;
  }
}
