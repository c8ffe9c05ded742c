import { deriveSeed, createRng, type Rng } from './prng.js';

/** Where a gateway stands: a hot outdoor site in summer, or indoors (a care home). */
export type SiteKind = 'outdoor' | 'indoor';
export const SITE_KINDS = ['outdoor', 'indoor'] as const;

export interface Climate {
  temperature: number;
  humidity: number;
  wbgt: number;
}

/**
 * WBGT estimated from air temperature and humidity (Australian Bureau of Meteorology's
 * formula for shade; good enough to give a site the right daily curve).
 */
export function estimateWbgt(temperature: number, humidity: number): number {
  const vapourPressure =
    (humidity / 100) * 6.105 * Math.exp((17.27 * temperature) / (237.7 + temperature));
  return 0.567 * temperature + 0.393 * vapourPressure + 3.94;
}

/**
 * 0 in the early morning, 1 at the mid-afternoon peak (14:30). Squared, so the night stays
 * flat and the heat builds through the morning into an afternoon plateau.
 */
function dayCurve(minuteOfDay: number): number {
  const phase = ((minuteOfDay - 14.5 * 60) / 1440) * 2 * Math.PI;
  return ((1 + Math.cos(phase)) / 2) ** 2;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * The climate at a gateway: a summer day's curve, varied day by day (some days are hotter)
 * and minute by minute, plus any heat episode's extra WBGT.
 */
export function climateAt(
  site: SiteKind,
  seed: number,
  gatewayId: string,
  minuteOfDay: number,
  dayNumber: number,
  noise: Rng,
  extraWbgt = 0,
): Climate {
  const day = createRng(deriveSeed(seed, gatewayId, 'day', dayNumber));
  const shape = dayCurve(minuteOfDay);
  let temperature: number;
  let humidity: number;
  if (site === 'outdoor') {
    // A hot summer day: 23.5 C and 78 % at night (WBGT ~26), peak air 31.8..33 C at 54 %
    // (WBGT ~31.8..33): severe (28-31) from about 09:00, danger (31+) from about noon to 16:30.
    const peak = 32.5 + day.range(-0.7, 0.5);
    temperature = 23.5 + (peak - 23.5) * shape + noise.normal() * 0.3;
    humidity = 78 - 24 * shape + noise.normal() * 1.5;
  } else {
    temperature = 23 + day.range(0, 1) + 1.5 * shape + noise.normal() * 0.15;
    humidity = 55 - 5 * shape + noise.normal() * 1;
  }
  humidity = Math.min(100, Math.max(5, humidity));
  // A heat episode warms the air; WBGT follows the extra directly so the target is met.
  temperature += extraWbgt * 1.2;
  const wbgt = estimateWbgt(temperature - extraWbgt * 1.2, humidity) + extraWbgt;
  return { temperature: round1(temperature), humidity: round1(humidity), wbgt: round1(wbgt) };
}
