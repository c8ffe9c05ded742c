import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as AlertSound from './alert-sound';

type Sound = typeof AlertSound;

/** A fresh module each time: "has the person interacted yet" is module state. */
async function freshSound(): Promise<Sound> {
  vi.resetModules();
  return import('./alert-sound');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function fakeAudio(resume: () => Promise<void>) {
  const started: number[] = [];
  const node = () => ({
    connect: (next: unknown) => next,
    frequency: { value: 0 },
    gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
    start: (at: number) => started.push(at),
    stop: vi.fn(),
  });
  class FakeContext {
    state = 'suspended';
    currentTime = 0;
    destination = {};
    resume = resume;
    createOscillator = node;
    createGain = node;
  }
  return { FakeContext, started };
}

describe('alert sound', () => {
  it('stays silent until the first user interaction, then plays two tones', async () => {
    const { FakeContext, started } = fakeAudio(() => Promise.resolve());
    vi.stubGlobal('AudioContext', FakeContext);
    const sound = await freshSound();
    const disarm = sound.armAlertSound();
    expect(await sound.playAlertSound()).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown'));
    expect(await sound.playAlertSound()).toBe(true);
    expect(started).toHaveLength(2);
    disarm();
  });

  it('gives up after 5 s when the audio never gets ready, without throwing', async () => {
    vi.useFakeTimers();
    const { FakeContext } = fakeAudio(() => new Promise<void>(() => undefined));
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
