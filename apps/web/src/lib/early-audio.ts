type AudioContextClass = typeof AudioContext;

let early: AudioContext | null = null;

export function audioContextClass(): AudioContextClass | null {
  const w = window as typeof window & { webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/**
 * The tab's AudioContext, made by the first script of a staff console (main.tsx): the browser decides there,
 * before anything else runs, whether sound may start without a gesture (its autoplay policy: `suspended` until
 * one). Made later, a context would take the state of whatever counted as a gesture meanwhile: Playwright's
 * page evaluations do, so the browser tests could not see a console that nobody clicked.
 */
export function startEarlyAudio(): void {
  const Ctx = audioContextClass();
  if (Ctx === null || early !== null) return;
  try {
    early = new Ctx();
  } catch {
    // No audio device or a policy: the alerts feature finds out again.
  }
}

/** The context made at start, handed over once (the alerts feature owns it from then on). */
export function takeEarlyAudio(): AudioContext | null {
  const context = early;
  early = null;
  return context;
}
