import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const db = await PGlite.create();
console.log('create mem', Date.now()-t); t=Date.now();
await db.exec('create table a(x int)');
const dump = await db.dumpDataDir('gzip');
console.log('dump', Date.now()-t, dump.size); t=Date.now();
const db2 = await PGlite.create({loadDataDir: dump});
console.log('load', Date.now()-t, (await db2.query('select count(*) from a')).rows);
