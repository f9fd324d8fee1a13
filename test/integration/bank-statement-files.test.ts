/**
 * Statements as three banks export them, written by an independent writer (openpyxl), imported into a real cache:
 * HDFC (lines about the account above the header, text dates, number amounts), ICICI (serial number column, date
 * cells, separate withdrawal and deposit columns) and SBI (d MMM yyyy dates, text amounts with Indian grouping,
 * a wrapped narration). The saved mapping is used again for a file of the account whose headers the layouts do
 * not know.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { createJournal } from '../../electron/journal/journal';
import { createProfileStore } from '../../electron/profiles/profile-store';
import { TEST_NOW } from '../support/clock';
import { importStatement } from '../../electron/reconciliation/reconcile';
import { openpyxlWrite, type SheetInput } from '../support/export-files';

let dir: string;
let cache: Cache;

/** The cache's journal: an import is journaled in the same transaction. */
const journalOf = (c: Cache) =>
  createJournal({
    db: c.db,
    profileId: 'statements',
    heads: createProfileStore({ dataDir: dir, sandbox: null }),
    appVersion: '0.0.0',
    osUser: 'asha',
    now: () => new Date(TEST_NOW),
  });
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bank-files-'));
  cache = openCache(join(dir, 'cache.sqlite'));
});
afterAll(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

async function load(name: string, rows: SheetInput[][], account: string) {
  const file = join(dir, name);
  openpyxlWrite(file, rows);
  return importStatement(cache, journalOf(cache), { fileName: name, bytes: readFileSync(file), accountName: account });
}

const money = (n: number): SheetInput => ({ n, fmt: '#,##0.00' });
/** An Excel date cell: days since 1899-12-30. */
const excelDate = (iso: string): SheetInput => ({
  n: Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25_569,
  fmt: 'dd-mmm-yyyy',
});

describe('statements in three banks layouts, written by openpyxl', () => {
  it('HDFC: header below the account lines', async () => {
    const r = await load(
      'hdfc.xlsx',
      [
        ['HDFC BANK Ltd.'],
        ['Account No : 50200012345678'],
        ['Date', 'Narration', 'Chq./Ref.No.', 'Value Dt', 'Withdrawal Amt.', 'Deposit Amt.', 'Closing Balance'],
        ['********', '********', '********', '********', '********', '********', '********'],
        [
          '24/11/26',
          'NEFT CR-UTIB0000100-RAZORPAY SOFTWARE PVT LTD-427779231028',
          '0000000000127978',
          '24/11/26',
          null,
          money(124835.83),
          money(2624835.83),
        ],
        [
          '24/11/26',
          'ACH D- TP ACH HDFCERGO-1234567',
          '0000000000000002',
          '24/11/26',
          money(1500),
          null,
          money(2623335.83),
        ],
      ],
      'HDFC',
    );
    expect([r.layout, r.added, r.bad]).toEqual(['HDFC Bank', 2, []]);
    const lines = cache.reconciliation.lines(r.account.id, '2026-11-24', '2026-11-24');
    expect(lines.map((l) => [l.amount, l.utr, l.rail, l.balance])).toEqual([
      [12483583, '427779231028', 'NEFT', 262483583],
      [-150000, null, null, 262333583],
    ]);
  });

  it('ICICI: date cells, serial numbers, cheque numbers', async () => {
    const r = await load(
      'icici.xlsx',
      [
        ['DETAILED STATEMENT'],
        [],
        [
          'S No.',
          'Value Date',
          'Transaction Date',
          'Cheque Number',
          'Transaction Remarks',
          'Withdrawal Amount (INR )',
          'Deposit Amount (INR )',
          'Balance (INR )',
        ],
        [
          { n: 1 },
          excelDate('2026-11-25'),
          excelDate('2026-11-25'),
          null,
          'MMT/IMPS/612345678901/SETTLEMENT/PAYU',
          { n: 0 },
          money(328141.38),
          money(428141.38),
        ],
        [
          { n: 2 },
          excelDate('2026-11-26'),
          excelDate('2026-11-26'),
          null,
          'RTGS-UTIBR52026112600001234-CASHFREE',
          { n: 0 },
          money(508345.69),
          money(936487.07),
        ],
      ],
      'ICICI',
    );
    expect([r.layout, r.added, r.bad]).toEqual(['ICICI Bank', 2, []]);
    const lines = cache.reconciliation.lines(r.account.id, '2026-11-01', '2026-11-30');
    expect(lines.map((l) => [l.date, l.amount, l.utr, l.rail])).toEqual([
      ['2026-11-25', 32814138, '612345678901', 'IMPS'],
      ['2026-11-26', 50834569, 'UTIBR52026112600001234', 'RTGS'],
    ]);
  });

  it('SBI: text amounts with Indian grouping, d MMM yyyy dates, a wrapped narration and a bad row', async () => {
    const r = await load(
      'sbi.xlsx',
      [
        ['Account Name', 'ACME RETAIL PVT LTD'],
        ['Txn Date', 'Value Date', 'Description', 'Ref No./Cheque No.', 'Debit', 'Credit', 'Balance'],
        [
          '27 Nov 2026',
          '27 Nov 2026',
          'BY TRANSFER-NEFT*YESB0000262*',
          'TRANSFER FROM 9876',
          null,
          '2,00,000.50',
          '12,00,000.50',
        ],
        [null, null, 'YESBN12026112799999*CASHFREE', null, null, null, null],
        ['31 Nov 2026', '31 Nov 2026', 'BY TRANSFER', null, null, '10.00', null],
        ['28 Nov 2026', '28 Nov 2026', 'TO TRANSFER-INB RENT', '0001', '55,000.00', null, '11,45,000.50'],
      ],
      'SBI',
    );
    expect([r.layout, r.added]).toEqual(['State Bank of India', 2]);
    expect(r.bad).toEqual([{ rowNumber: 5, reason: 'date "31 Nov 2026" is not dd/mm/yy, dd/mm/yyyy or dd-MMM-yyyy' }]);
    const lines = cache.reconciliation.lines(r.account.id, '2026-11-01', '2026-11-30');
    expect(lines.map((l) => [l.amount, l.utr])).toEqual([
      [20000050, 'YESBN12026112799999'],
      [-5500000, null],
    ]);
  });

  it('a layout the console does not know, read by the mapping remembered for its account', async () => {
    const rows: SheetInput[][] = [
      ['Posted', 'What', 'In', 'Out'],
      ['01/12/2026', 'NEFT CR-UTIB0000100-RAZORPAY-427779231099', '100.00', null],
    ];
    openpyxlWrite(join(dir, 'odd.xlsx'), rows);
    const bytes = readFileSync(join(dir, 'odd.xlsx'));
    await expect(
      importStatement(cache, journalOf(cache), { fileName: 'odd.xlsx', bytes, accountName: 'Odd bank' }),
    ).rejects.toThrow('no header row');
    const mapping = { date: 'Posted', narration: 'What', credit: 'In', debit: 'Out' };
    const first = await importStatement(cache, journalOf(cache), {
      fileName: 'odd.xlsx',
      bytes,
      accountName: 'Odd bank',
      mapping,
    });
    expect([first.layout, first.added]).toEqual(['Saved mapping', 1]);
    expect(cache.reconciliation.account('Odd bank')!.mapping).toEqual(mapping);
    const again = await importStatement(cache, journalOf(cache), {
      fileName: 'odd.xlsx',
      bytes,
      accountName: 'Odd bank',
    });
    expect([again.layout, again.added, again.duplicates]).toEqual(['Saved mapping', 0, 1]);
  });
});
