/** A translator of the alerts namespace, where the duration words live (`responseTimes.seconds` ...). */
type T = (key: string, opts?: Record<string, unknown>) => string;

/** 45 -> "45秒" / "45 s"; 125 -> "2分5秒"; 5400 -> "1時間30分". */
export function formatDuration(seconds: number | null, t: T): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return t('responseTimes.seconds', { s });
  if (s < 3600) return t('responseTimes.minutes', { m: Math.floor(s / 60), s: s % 60 });
  return t('responseTimes.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}
