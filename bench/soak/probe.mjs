// Loaded into the server process by the soak bench (`node --import bench/soak/probe.mjs`): every
// SOAK_PROBE_MS it appends one JSON line to SOAK_PROBE_FILE with the process's memory and the event
// loop's delay (perf_hooks monitorEventLoopDelay) since the previous line. Not part of the product.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  setInterval(
    () => {
      const m = process.memoryUsage();
      const line = {
        t: Date.now(),
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        // No sample since the last line (two lines written back to back after a stall): nothing to say.
        loop: delay.count
          ? { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) }
          : null,
      };
      delay.reset();
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
    Number(process.env.SOAK_PROBE_MS ?? 10_000),
  ).unref();
}
