/** Sleep stage codes as gateways send them (spec section 4). */
export const SLEEP_STAGES = { DEEP_SLEEP: 1, LIGHT_SLEEP: 2, RESTLESS_SLEEP: 3, AWAKE: 4 } as const;
export type SleepStage = keyof typeof SLEEP_STAGES;
export type SleepStageCode = (typeof SLEEP_STAGES)[SleepStage];
export const SLEEP_STAGE_CODES = Object.values(SLEEP_STAGES) as SleepStageCode[];

export const STRESS_LEVELS = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'OVERLOAD'] as const;
export type StressLevel = (typeof STRESS_LEVELS)[number];

/** Heart-rate measurement duty cycle options in minutes (spec section 9). */
export const HEART_RATE_DUTY_CYCLES = [1, 3, 5, 10] as const;
export type HeartRateDutyCycle = (typeof HEART_RATE_DUTY_CYCLES)[number];

export const GATEWAY_TYPES = ['STATIONARY', 'SMARTPHONE'] as const;
export type GatewayType = (typeof GATEWAY_TYPES)[number];

/** Ranges outside which a reading is refused at ingestion. */
export const READING_LIMITS = {
  heartRate: { min: 20, max: 250 },
  temperature: { min: 25, max: 45 },
  futureToleranceMs: 5 * 60_000,
  /** Older items are refused: a gateway clock never set (1970, year 1), not a week of buffering. */
  pastToleranceMs: 7 * 86_400_000,
} as const;

/** Pairing poll constants (spec section 9). */
export const PAIRING_POLL_INTERVAL_MS = 90_000;
export const PAIRING_EXPIRY_MS = 30 * 60_000;
