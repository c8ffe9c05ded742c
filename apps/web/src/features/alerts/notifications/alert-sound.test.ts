import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as AlertSound from './alert-sound';

type Sound = typeof AlertSound;

/** A fresh module each time: the tab's AudioContext and "has the person interacted yet" are module state. */
async function freshSound(): Promise<Sound> {
  vi.resetModules();
  return import('./alert-sound');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  sessionStorage.clear();
});

/**
 * A stand-in for the browser's AudioContext (jsdom has none): created `suspended` as Chromium does without a
 * gesture; `resume` runs it when `allow()` says the browser would.
 */
function fakeAudio(allow: () => Promise<boolean> = () => Promise.resolve(true)) {
  const started: { at: number; frequency: number }[] = [];
  const resumes: number[] = [];
  class FakeContext {
    state: AudioContextState = 'suspended';
    currentTime = 0;
    destination = {};
    onstatechange: (() => void) | null = null;
    resume = async () => {
      resumes.push(Date.now());
      if (await allow()) {
        this.state = 'running';
        this.onstatechange?.();
      }
    };
    createOscillator = () => {
      const oscillator = {
        connect: (next: unknown) => next,
        frequency: { value: 0 },
        start: (at: number) => started.push({ at, frequency: oscillator.frequency.value }),
        stop: vi.fn(),
      };
      return oscillator;
    };
    createGain = () => ({
      connect: (next: unknown) => next,
      gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
    });
  }
  return { FakeContext, started, resumes };
}

describe('alert sound', () => {
  it('stays silent until the first user interaction, then plays the two beeps', async () => {
    const { FakeContext, started } = fakeAudio();
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    const disarm = sound.armAlertSound();
    expect(sound.alertSoundState()).toBe('off');
    expect(await sound.playAlertSound()).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown'));
    await vi.waitFor(() => expect(sound.alertSoundState()).toBe('on'));
    expect(await sound.playAlertSound()).toBe(true);
    expect(started.map((s) => s.frequency)).toEqual([880, 660]);
    disarm();
  });

  it('plays the EMERGENCY pattern of ALERT_TONES', async () => {
    const { FakeContext, started } = fakeAudio();
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    sound.armAlertSound();
    expect(await sound.enableAlertSound()).toBe(true);
    expect(await sound.playAlertSound('EMERGENCY')).toBe(true);
    expect(started.map((s) => s.frequency)).toEqual([1046, 1318, 1046, 1318]);
  });

  it('says "off" while the browser refuses, and never "on" until the audio runs', async () => {
    let allowed = false;
    const { FakeContext } = fakeAudio(() => Promise.resolve(allowed));
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    sound.armAlertSound();
    const seen: string[] = [];
    sound.subscribeAlertSound(() => seen.push(sound.alertSoundState()));
    expect(await sound.enableAlertSound()).toBe(false);
    expect(sound.alertSoundState()).toBe('off');
    expect(sessionStorage.getItem(sound.ALERT_SOUND_KEY)).toBeNull();
    allowed = true;
    expect(await sound.enableAlertSound()).toBe(true);
    expect(seen.at(-1)).toBe('on');
    expect(sessionStorage.getItem(sound.ALERT_SOUND_KEY)).toBe('on');
  });

  it('after a reload of a tab that had sound on, asks the browser at once, without a gesture', async () => {
    sessionStorage.setItem('alertSound', 'on');
    const { FakeContext, resumes } = fakeAudio(() => Promise.resolve(false));
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    sound.armAlertSound();
    expect(resumes).toHaveLength(1);
    // The browser still blocks: the control must show again.
    await Promise.resolve();
    expect(sound.alertSoundState()).toBe('off');
  });

  it('a tab never switched on does not ask before a gesture', async () => {
    const { FakeContext, resumes } = fakeAudio();
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    sound.armAlertSound();
    expect(resumes).toHaveLength(0);
    window.dispatchEvent(new Event('pointerdown'));
    expect(resumes).toHaveLength(1);
  });

  it('is "unsupported" without Web Audio (no control to offer)', async () => {
    vi.stubGlobal('AudioContext', undefined);
    const sound = await freshSound();
    sound.armAlertSound();
    expect(sound.alertSoundState()).toBe('unsupported');
  });

  it('gives up after 5 s when the audio never gets ready, without throwing', async () => {
    vi.useFakeTimers();
    const { FakeContext } = fakeAudio(() => new Promise<boolean>(() => undefined));
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    sound.armAlertSound();
    window.dispatchEvent(new Event('pointerdown'));
    const played = sound.playAlertSound();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await played).toBe(false);
  });

  it('swallows an audio failure', async () => {
    vi.stubGlobal(
      'AudioContext',
      class {
        constructor() {
          throw new Error('no audio device');
        }
      },
    );
    const sound = await freshSound();
    sound.armAlertSound();
    window.dispatchEvent(new Event('pointerdown'));
    expect(await sound.playAlertSound()).toBe(false);
  });
});
