import { openCache } from '../../electron/cache/database';
import { scratchDir } from './cache';
import { datasetDays } from './dataset';
import { join } from 'node:path';
const rows = Number(process.argv[2]);
const s = scratchDir();
const c = openCache(join(s.dir, 'c.sqlite'));
const days = datasetDays(rows).map(([d, p]) => [d, [...p]] as const);
const { run } = c.syncRuns.claim(
  'settlements',
  { from: days[0]![0], to: days.at(-1)![0], pg: null },
  days.map((d) => d[0]),
);
const t = { begin: 0, upsert: 0, finish: 0 };
for (const [day, pages] of days) {
  let a = performance.now();
  const d = c.settlements.beginDate({ runId: run.id, date: day, pg: null });
  t.begin += performance.now() - a;
  a = performance.now();
  let off = 0;
  for (const p of pages) {
    off += p.length;
    d.upsertPage(p, off);
  }
  t.upsert += performance.now() - a;
  a = performance.now();
  d.finish();
  t.finish += performance.now() - a;
}
console.log(process.env.NOKEYS, t, rows / ((t.begin + t.upsert + t.finish) / 1000));
c.close();
s.remove();
