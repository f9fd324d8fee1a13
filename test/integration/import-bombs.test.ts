/**
 * XLSX and CSV files built to exhaust the main process (issue 32, item 4), generated here: a sheet of 480 MB of XML
 * deflated to about 2 MB, the same size behind a central directory that declares 10 KB, a sheet of 300,000 small
 * rows, a row of 10,000 columns and a CSV over the size limit. Each is refused with its sentence, by the statement
 * import and by the beneficiary sheet reader, and the process's RSS grows by less than 300 MB while it is read
 * (sampled every few milliseconds; the bound is generous for a busy machine, the reads stay near a few MB). Two
 * bombs read at once are read one after the other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { bytesOfContent, readSheet, readTable, SheetReadError } from '../../electron/import/sheet-reader';
import { zipEntries } from '../../electron/import/xlsx-zip';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { importStatement } from '../../electron/reconciliation/reconcile';
import { TEST_NOW } from '../support/clock';
import { BOMB_ROWS, bombRow, FAT_ROWS, fatRow, smallRow, wideRow, xlsxWithRows } from '../support/xlsx-bombs';

const RSS_BOUND = 300 * 1024 * 1024;
const TOO_LARGE = /more than 100 MB of spreadsheet XML, the most the console reads/;

let dir: string;
let cache: Cache;
const bombs: Record<'declared' | 'lying' | 'rows' | 'wide', Buffer> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'import-bombs-'));
  cache = openCache(join(dir, 'cache.sqlite'));
  bombs.declared = await xlsxWithRows(BOMB_ROWS, bombRow);
  bombs.lying = await xlsxWithRows(FAT_ROWS, fatRow, true);
  bombs.rows = await xlsxWithRows(300_000, smallRow);
  bombs.wide = await xlsxWithRows(3, (i) => wideRow(i, 10_000));
}, 120_000);
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const journal = () =>
  createJournal({
    db: cache.db,
    profileId: 'bombs',
    heads: createProfileStore({ dataDir: dir, sandbox: null }),
    appVersion: '0.0.0',
    osUser: 'asha',
    now: () => new Date(TEST_NOW),
  });

/** The refusal `read` ends with, and how much the RSS grew at most while it ran. */
async function refusal(read: () => Promise<unknown>): Promise<{ message: string; grew: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    await read();
    throw new Error('the file was read, not refused');
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return { message: (e as Error).message, grew: Math.max(peak, process.memoryUsage().rss) - base };
  } finally {
    clearInterval(sample);
  }
}

const statement = (fileName: string, bytes: Buffer) => () =>
  importStatement(cache, journal(), { fileName, bytes, accountName: 'Bombs' });

describe('XLSX bombs', () => {
  it('the generated files are what they claim: small files, hundreds of MB inflated, a directory that lies', () => {
    expect(bombs.declared.length).toBeLessThan(4 * 1024 * 1024);
    expect(bombs.lying.length).toBeLessThan(4 * 1024 * 1024);
    const declared = (b: Buffer) => {
      const entries = zipEntries(b);
      if (typeof entries === 'string') throw new Error(entries);
      return entries.reduce((sum, e) => sum + e.declared, 0);
    };
    expect(declared(bombs.declared)).toBeGreaterThan(450 * 1024 * 1024);
    expect(declared(bombs.lying)).toBeLessThan(1024 * 1024);
  });

  it('480 MB of sheet XML is refused by its central directory before anything is inflated', async () => {
    const { message, grew } = await refusal(statement('bomb.xlsx', bombs.declared));
    expect(message).toMatch(/^bomb\.xlsx declares 4\d\d MB inflated: more than 100 MB of spreadsheet XML/);
    expect(message).toMatch(TOO_LARGE);
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it('a central directory that declares 10 KB is caught by counting as it inflates, stopped at 100 MB', async () => {
    const { message, grew } = await refusal(statement('lying.xlsx', bombs.lying));
    expect(message).toMatch(/^lying\.xlsx inflates to more than 100 MB of spreadsheet XML/);
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it('300,000 rows are refused at the row past the statement limit, with the limit named', async () => {
    const { message, grew } = await refusal(statement('rows.xlsx', bombs.rows));
    expect(message).toBe('rows.xlsx has more than 200000 rows; import at most 200000 at a time.');
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it('the beneficiary reader stops at its own limit (5,000 rows)', async () => {
    const { message, grew } = await refusal(() => readSheet('payees.xlsx', bombs.rows));
    expect(message).toBe('payees.xlsx has more than 5000 rows; import at most 5000 at a time.');
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it('a row of 10,000 columns is refused at that row, with the column limit named', async () => {
    const { message, grew } = await refusal(statement('wide.xlsx', bombs.wide));
    expect(message).toBe('wide.xlsx: row 1 has more than 200 columns, the most the console reads.');
    expect(grew).toBeLessThan(RSS_BOUND);
    await expect(readSheet('wide.xlsx', bombs.wide)).rejects.toThrow(SheetReadError);
  });

  it('a row of 10,000 cells whose tags carry a namespace prefix is refused the same way', async () => {
    const prefixed = await xlsxWithRows(1, (i) => wideRow(i, 10_000).replace(/<(\/?)(row|c|is|t)\b/g, '<$1x:$2'));
    const { message } = await refusal(() => readSheet('prefixed.xlsx', prefixed));
    expect(message).toBe('prefixed.xlsx: row 1 has more than 200 columns, the most the console reads.');
  });

  it('two bombs sent together are read one after the other, each refused', async () => {
    const order: string[] = [];
    const limit = { maxRows: 200_030, rowsSentence: 'too many rows' };
    const one = (name: string, b: Buffer) =>
      readTable(name, b, limit).catch((e: Error) => {
        order.push(name);
        return e.message;
      });
    const { message, grew } = await refusal(async () => {
      const [a, b] = await Promise.all([one('first.xlsx', bombs.lying), one('second.xlsx', bombs.lying)]);
      throw new Error(`${a} | ${b}`);
    });
    expect(order).toEqual(['first.xlsx', 'second.xlsx']);
    expect(message).toMatch(/^first\.xlsx inflates to .* \| second\.xlsx inflates to /);
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it('a workbook under the limits is still read, leading zeros and numbers as before', async () => {
    const small = await xlsxWithRows(3, smallRow);
    const { rows } = await readTable('small.xlsx', small, { maxRows: 10, rowsSentence: 'too many rows' });
    expect(rows.map((r) => r.cells)).toEqual([
      ['Payee 1', { number: 1, format: null }, '001'],
      ['Payee 2', { number: 2, format: null }, '002'],
      ['Payee 3', { number: 3, format: null }, '003'],
    ]);
  });
});

describe('CSV over the size limit', () => {
  it('is refused by its length before it is decoded or parsed', async () => {
    // 24 MB of CSV as the window would send it (base64): refused from the string's length alone, so a file of
    // any size costs no more than the 20 MB the window sends of it (renderer/src/ui/files.ts).
    const content = 'QUJD'.repeat(8 * 1024 * 1024);
    expect(() => bytesOfContent('big.csv', content)).toThrow('big.csv is larger than 20 MB.');
    const { message } = await refusal(statement('big.csv', Buffer.alloc(21 * 1024 * 1024, 0x41)));
    expect(message).toBe('big.csv is larger than 20 MB.');
  });
});
