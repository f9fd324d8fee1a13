import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ABANDONED_PART_MS, openAtomicFile, openOutputs, removeStaleParts } from '../../electron/export/atomic-file';
import { TEST_NOW } from '../support/clock';

const root = mkdtempSync(join(tmpdir(), 'pc-atomic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => mkdtempSync(join(root, `d${++n}-`));

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('atomic export files', () => {
  it('leaves nothing when discarded at once, while the file is still being opened', async () => {
    const dir = freshDir();
    const file = openAtomicFile(join(dir, 'report.xlsx'));
    expect(file.tempPath).toMatch(new RegExp(`/\\.report\\.xlsx\\.${process.pid}-[0-9a-f]{8}\\.part$`));
    await file.discard();
    expect(readdirSync(dir)).toEqual([]);
    // Discarding twice, or after the stream closed, is harmless.
    await file.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('commits every file of an export together, or discards them all', async () => {
    const dir = freshDir();
    const outputs = openOutputs();
    for (const name of ['a (1 of 2).csv', 'a (2 of 2).csv', 'a.about.txt'])
      outputs.open(join(dir, name)).stream.end(name);
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(dir).every((f) => f.endsWith('.part'))).toBe(true);
    expect(outputs.commit().map((f) => f.slice(dir.length + 1))).toEqual([
      'a (1 of 2).csv',
      'a (2 of 2).csv',
      'a.about.txt',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['a (1 of 2).csv', 'a (2 of 2).csv', 'a.about.txt']);

    const other = freshDir();
    const discarded = openOutputs();
    discarded.open(join(other, 'b.csv')).stream.write('half');
    discarded.open(join(other, 'b.about.txt'));
    await discarded.discard();
    expect(readdirSync(other)).toEqual([]);
  });

  it("removes the temporary files of exports whose process is gone or that nobody has written for an hour, and of the older naming, but no one else's", () => {
    const dir = freshDir();
    const dead = deadPid();
    const names = {
      dead: `.report.xlsx.${dead}-0123abcd.part`,
      legacy: '.long.xlsx.89abcdef.part',
      alive: `.report.xlsx.${process.pid}-fedcba98.part`,
      parent: `.report.csv.${process.ppid}-00000000.part`,
      // A live id, but untouched for longer than any export writes: a crashed export whose id was reused.
      abandoned: `.report.csv.${process.ppid}-11111111.part`,
      user: 'notes.part',
      data: 'report.xlsx',
    };
    // File times are pinned too: under faketime the process clock and the file system's differ by years.
    const now = TEST_NOW;
    const written = (now - 60_000) / 1000;
    for (const name of Object.values(names)) {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), written, written);
    }
    const abandonedAt = (now - ABANDONED_PART_MS - 60_000) / 1000;
    utimesSync(join(dir, names.abandoned), abandonedAt, abandonedAt);
    expect(removeStaleParts(dir, now).sort()).toEqual([names.dead, names.legacy, names.abandoned].sort());
    expect(readdirSync(dir).sort()).toEqual([names.alive, names.parent, names.user, names.data].sort());
    expect(removeStaleParts(join(dir, 'missing'))).toEqual([]);
  });

  it("keeps another export's file being written when this process's clock is years from the file system's", () => {
    // A network share stamps files on its server's clock; faketime moves only the process's.
    const dir = freshDir();
    const writing = `.balances.xlsx.${process.pid}-0badc0de.part`;
    writeFileSync(join(dir, writing), 'rows so far');
    const stampedAt = statSync(join(dir, writing)).mtimeMs;
    try {
      for (const years of [-3, 3]) {
        vi.useFakeTimers({ now: stampedAt + years * 365 * 24 * 60 * 60 * 1000, toFake: ['Date'] });
        expect(removeStaleParts(dir)).toEqual([]);
      }
    } finally {
      vi.useRealTimers();
    }
    // Only the file being written: the clock's own probe is gone.
    expect(readdirSync(dir)).toEqual([writing]);
  });
});
