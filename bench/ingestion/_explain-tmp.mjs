import pg from 'pg';
const { insertReadings } = await import('../../apps/server/dist/modules/readings/readings-store.repository.js');
const url = process.argv[2];
const c = new pg.Client({ connectionString: url }); await c.connect();
let captured;
const fake = { query: async (t, p) => { captured = { t, p }; return []; } };
const origin = Date.now() - 6 * 3600_000;
const build = async (g, seq) => {
  const rows = [];
  for (let i = 1; i <= 20; i++) for (let k = 0; k < 5; k++) {
    const s = seq * 5 + k;
    rows.push({ braceletId: `ib-${g}-${i}`, wearerId: `iw-${g}-${i}`, at: new Date(origin + s * 1000), heartRate: 70, skinTemperature: 34, worn: true, steps: 1, sleepStage: null, stressLevel: null, battery: 90, environmentGatewayId: `igw-${g}` });
  }
  await insertReadings(fake, 'org-bench-ingestion', `igw-${g}`, rows, [{ at: new Date(origin + seq * 5000), temperature: 28, humidity: 60, wbgt: 25 }]);
  return captured;
};
for (let seq = 0; seq < 300; seq++) { const q = await build(1, seq); await c.query(q.t, q.p); }
let t0 = performance.now();
for (let seq = 300; seq < 400; seq++) { const q = await build(1, seq); await c.query(q.t, q.p); }
console.log('ms per batch (unnamed)', ((performance.now() - t0) / 100).toFixed(2));
const q = await build(1, 400);
await c.query('BEGIN');
const r = await c.query('EXPLAIN (ANALYZE, BUFFERS, VERBOSE off) ' + q.t, q.p);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await c.query('ROLLBACK');
await c.end();
