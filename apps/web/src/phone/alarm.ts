/**
 * The "are you all right?" alarm: a beep every second (Web Audio, no sound file to cache) and vibration, until
 * stopped. Browsers allow sound only after the page was tapped once; a phone that was never tapped still vibrates.
 */
class Alarm {
  private timer: ReturnType<typeof setInterval> | null = null;
  private audio: AudioContext | null = null;

  start(): void {
    if (this.timer) return;
    const beat = () => {
      navigator.vibrate?.([400, 200, 400]);
      this.beep();
    };
    beat();
    this.timer = setInterval(beat, 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    navigator.vibrate?.(0);
  }

  private beep(): void {
    try {
      this.audio ??= new AudioContext();
      const oscillator = this.audio.createOscillator();
      const gain = this.audio.createGain();
      oscillator.frequency.value = 880;
      gain.gain.value = 0.3;
      oscillator.connect(gain).connect(this.audio.destination);
      oscillator.start();
      oscillator.stop(this.audio.currentTime + 0.3);
    } catch {
      // No audio on this device: the vibration and the screen remain.
    }
  }
}

export const alarm = new Alarm();
