/**
 * Engine throughput on one core: a day of 1-minute readings for many wearers, through JSON
 * after every step as the runner stores it. Run: npx tsx apps/server/src/engine/testing/measure.ts
 */
import { initialState, step, type EngineState } from '../engine.js';
import { SATURDAY_NIGHT, scenario, wearer } from './scenario.js';

const wearers = 50;
const minutes = 24 * 60;
const profile = wearer({ settings: { cooldownMinutes: 10 } });
const s = scenario(SATURDAY_NIGHT);
for (let m = 0; m < minutes; m++) {
  // Rest, work in the heat, rest: every rule has something to look at.
  const heartRate = m % 240 < 90 ? 75 + (m % 7) : 160 + (m % 11);
  s.reading({ heartRate, wbgt: 27 + (m % 6), sleepStage: m % 180 < 60 ? 2 : 4 })
    .tick()
    .wait(1);
}

const started = process.hrtime.bigint();
let effects = 0;
for (let w = 0; w < wearers; w++) {
  let state: EngineState = initialState();
  for (const input of s.inputs) {
    const result = step(profile, state, input);
    effects += result.effects.length;
    state = JSON.parse(JSON.stringify(result.state)) as EngineState;
  }
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const steps = wearers * s.inputs.length;
console.log(
  `${steps} steps (${wearers} wearers x ${s.inputs.length} inputs), ${effects} effects: ` +
    `${ms.toFixed(0)} ms, ${((steps / ms) * 1000).toFixed(0)} steps/s, ${((ms * 1000) / steps).toFixed(1)} us/step`,
);
