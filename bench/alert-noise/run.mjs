// alert-noise: replays a simulated hot 8-hour shift for 200 wearers at one site through today's rule set
// (bench/alert-noise/old-engine, kept only here) and the product's engine, and prints the noise side by side.
// Usage: npm run bench -- alert-noise [--wearers 200] [--hours 8] [--from 09:00] [--date 2026-07-21]
// [--seed 14] [--strained 6] [--recipients 3] [--plan bench|demo] [--confirm-minutes N]. Deterministic: same flags,
// same figures. Without --confirm-minutes nobody confirms (open alerts keep reminding: the worst case).
// The engine and the simulator are TypeScript sources: tsx loads them, no build needed.
import { register } from 'tsx/esm/api';
import { printMachine } from '../foundation/_lib.mjs';

printMachine();
register();
await import('./replay.js');
