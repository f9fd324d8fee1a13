/** Reading bank statements: amounts, Indian dates, UTRs by rail, layouts by their headers, bad rows. */
import { describe, expect, it } from 'vitest';
import {
  detectLayout,
  extractUtr,
  findHeaderRow,
  parseStatementAmount,
  parseStatementDate,
  readStatementRows,
} from '../../shared/bank-statement';

describe('statement amounts', () => {
  it.each([
    ['1,23,456.78', 12345678],
    ['123456.78', 12345678],
    ['1,234.5', 123450],
    ['₹ 2,00,000.00', 20000000],
    ['INR 15.00', 1500],
    ['1,234.00 Cr', 123400],
    ['500.00 Dr', -50000],
    ['500.00DR', -50000],
    ['1,500.00(Dr)', -150000],
    ['2,00,000.50(Cr)', 20000050],
    ['(1,234.00)', -123400],
    ['-99.99', -9999],
    ['0.10', 10],
  ])('%s is %i paise', (text, paise) => {
    expect(parseStatementAmount(text)).toBe(paise);
  });

  it('reads a number cell exactly and an empty cell as no amount', () => {
    expect(parseStatementAmount({ number: 124835.83, format: '#,##0.00' })).toBe(12483583);
    expect(parseStatementAmount(null)).toBeNull();
    expect(parseStatementAmount('  ')).toBeNull();
  });

  it.each(['12.3.4', '1,2,3', 'abc', '12.345', '1.2e5', '12,34.5'])('refuses %s with the text', (text) => {
    expect(() => parseStatementAmount(text)).toThrow(text);
  });
});

describe('statement dates', () => {
  it.each([
    ['24/11/26', '2026-11-24'],
    ['24/11/2026', '2026-11-24'],
    ['4-11-2026', '2026-11-04'],
    ['24.11.2026', '2026-11-24'],
    ['24-Nov-2026', '2026-11-24'],
    ['24-NOV-26', '2026-11-24'],
    ['1 Sept 2026', '2026-09-01'],
    ['29/02/28', '2028-02-29'],
    ['2026-11-24T00:00:00.000Z', '2026-11-24'],
  ])('%s is %s', (text, iso) => {
    expect(parseStatementDate(text)).toBe(iso);
  });

  it('reads an Excel serial date and refuses what is no date', () => {
    expect(parseStatementDate({ number: 46350, format: 'dd/mm/yy' })).toBe('2026-11-24');
    for (const t of ['31/02/26', '29/02/27', '24/13/26', 'Nov 24 2026', '11/24', 'Opening Balance'])
      expect(parseStatementDate(t)).toBeNull();
  });
});

describe('UTRs', () => {
  it.each([
    ['NEFT CR-YESB0000001-RAZORPAY SOFTWARE PVT LTD-ACME-YESBN52026112400123', null, 'NEFT', 'YESBN52026112400123'],
    ['NEFT CR-UTIB0000100-RAZORPAY SOFTWARE PVT LTD-427779231028', '0000000000127978', 'NEFT', '427779231028'],
    ['NEFT-HDFCN52026112412345678-CASHFREE PAYMENTS-SETTLEMENT', null, 'NEFT', 'HDFCN52026112412345678'],
    ['BY TRANSFER-NEFT*YESB0000262*YESBN12026112499999*CASHFREE', null, 'NEFT', 'YESBN12026112499999'],
    ['RTGS CR-UTIB0000100-RAZORPAY-UTIBR52026112400001234', null, 'RTGS', 'UTIBR52026112400001234'],
    ['IMPS-093124729658-PAYU PAYMENTS PVT LTD-HDFC-XXXXXXXX4821-SETTLEMENT', null, 'IMPS', '093124729658'],
    ['MMT/IMPS/612345678901/SETTLEMENT/PAYU', null, 'IMPS', '612345678901'],
    ['UPI-CASHFREE-cashfree.settle@yesb-YESB0000262-487161944429-SETTLEMENT', null, 'UPI', '487161944429'],
    ['UPI/612345678902/SETTLE/easebuzz@icici/ICICI Bank', null, 'UPI', '612345678902'],
    ['NEFT CR-ICIC0000104-EASEBUZZ PVT LTD-SETTLEMENT PART 1 OF 2', '0000000000128001', 'NEFT', null],
    ['CASH DEPOSIT BY - SELF', '410999', null, null],
    ['TRANSFER FROM PAYU', 'YESBN52026112400777', null, 'YESBN52026112400777'],
  ])('%s', (narration, ref, rail, utr) => {
    expect(extractUtr(narration, ref)).toEqual({ rail, utr });
  });
});

describe('layouts', () => {
  it('recognises HDFC, ICICI, SBI, Axis, Yes Bank and IDFC FIRST by their headers, and a generic signed-amount layout', () => {
    expect(
      detectLayout([
        'Date',
        'Narration',
        'Chq./Ref.No.',
        'Value Dt',
        'Withdrawal Amt.',
        'Deposit Amt.',
        'Closing Balance',
      ])?.layout,
    ).toBe('HDFC Bank');
    expect(
      detectLayout([
        'S No.',
        'Value Date',
        'Transaction Date',
        'Cheque Number',
        'Transaction Remarks',
        'Withdrawal Amount (INR )',
        'Deposit Amount (INR )',
        'Balance (INR )',
      ])?.layout,
    ).toBe('ICICI Bank');
    expect(
      detectLayout(['Txn Date', 'Value Date', 'Description', 'Ref No./Cheque No.', 'Debit', 'Credit', 'Balance'])
        ?.layout,
    ).toBe('State Bank of India');
    expect(detectLayout(['Tran Date', 'CHQNO', 'PARTICULARS', 'DR', 'CR', 'BAL', 'SOL'])?.layout).toBe('Axis Bank');
    // Yes Bank's reference column is mapped (the generic layout would leave it out); IDFC FIRST's is its own.
    expect(
      detectLayout([
        'Transaction Date',
        'Value Date',
        'Cheque No/Reference No',
        'Description',
        'Withdrawals',
        'Deposits',
        'Running Balance',
      ]),
    ).toEqual({
      layout: 'Yes Bank',
      mapping: {
        date: 'Transaction Date',
        valueDate: 'Value Date',
        narration: 'Description',
        reference: 'Cheque No/Reference No',
        debit: 'Withdrawals',
        credit: 'Deposits',
        balance: 'Running Balance',
      },
    });
    expect(
      detectLayout(['Transaction Date', 'Value Date', 'Particulars', 'Cheque No.', 'Debit', 'Credit', 'Balance'])
        ?.layout,
    ).toBe('IDFC FIRST Bank');
    const generic = detectLayout(['Posting Date', 'Details', 'Amount', 'Dr / Cr', 'Balance']);
    expect(generic).toEqual({
      layout: 'Generic',
      mapping: { date: 'Posting Date', narration: 'Details', amount: 'Amount', drCr: 'Dr / Cr', balance: 'Balance' },
    });
    expect(detectLayout(['Name', 'Account', 'IFSC'])).toBeNull();
  });

  it('finds the header below the lines about the account, or by a saved mapping', () => {
    const table = [
      ['HDFC BANK Ltd.'],
      ['Account No : 50200012345678'],
      [],
      ['Posted', 'What', 'In', 'Out'],
      ['24/11/26', 'NEFT CR-UTIB0000100-X-123456789012', '100.00', null],
    ];
    expect(findHeaderRow(table, null)).toBeNull();
    const saved = { date: 'Posted', narration: 'What', credit: 'In', debit: 'Out' };
    expect(findHeaderRow(table, saved)).toMatchObject({ index: 3, layout: 'Saved mapping' });
  });

  it("names a saved mapping after the layout it is (the mapping step's preselection of a known bank)", () => {
    const hdfc = [
      'Date',
      'Narration',
      'Chq./Ref.No.',
      'Value Dt',
      'Withdrawal Amt.',
      'Deposit Amt.',
      'Closing Balance',
    ];
    const found = findHeaderRow([hdfc], null)!;
    expect(findHeaderRow([hdfc], found.mapping)).toMatchObject({ layout: 'HDFC Bank', mapping: found.mapping });
    // Fewer columns than the layout's: still the desk's own mapping, and it is the one used.
    const narrower = { date: 'Date', narration: 'Narration', credit: 'Deposit Amt.' };
    expect(findHeaderRow([hdfc], narrower)).toMatchObject({ layout: 'Saved mapping', mapping: narrower });
  });
});

describe('rows', () => {
  const headers = [
    'Date',
    'Narration',
    'Chq./Ref.No.',
    'Value Dt',
    'Withdrawal Amt.',
    'Deposit Amt.',
    'Closing Balance',
  ];
  const mapping = detectLayout(headers)!.mapping;

  it('joins a wrapped narration, skips separators, reports each bad row with its number and reason', () => {
    const rows = [
      ['********', '********', null, null, null, null, null],
      [
        '24/11/26',
        'NEFT CR-UTIB0000100-RAZORPAY SOFTWARE',
        '0000000000000001',
        '24/11/26',
        null,
        '1,000.00',
        '5,000.00',
      ],
      [null, 'PVT LTD-427779231028', null, null, null, null, null],
      ['24/11/26', 'ACH D- TP ACH HDFCERGO', '2', '24/11/26', '200.00', null, '4,800.00'],
      ['31/11/26', 'NEFT CR-X', '3', null, null, '5.00', null],
      ['25/11/26', 'BOTH', '4', null, '5.00', '5.00', null],
      ['25/11/26', 'NEITHER', '5', null, null, null, null],
      ['25/11/26', 'ODD', '6', null, null, '5.005', null],
    ];
    const { lines, bad } = readStatementRows(headers, rows, [8, 9, 10, 11, 12, 13, 14, 15], mapping);
    expect(lines.map((l) => [l.rowNumber, l.amount, l.utr])).toEqual([
      [9, 100000, '427779231028'],
      [11, -20000, null],
    ]);
    expect(lines[0]!.narration).toBe('NEFT CR-UTIB0000100-RAZORPAY SOFTWARE PVT LTD-427779231028');
    expect(bad).toEqual([
      { rowNumber: 12, reason: 'date "31/11/26" is not dd/mm/yy, dd/mm/yyyy or dd-MMM-yyyy' },
      { rowNumber: 13, reason: 'both a withdrawal and a deposit' },
      { rowNumber: 14, reason: 'no amount: neither a withdrawal nor a deposit' },
      { rowNumber: 15, reason: '"5.005" has more than 2 decimal places' },
    ]);
  });

  it('reads one signed column with a Dr/Cr column', () => {
    const h = ['Date', 'Description', 'Amount', 'Dr/Cr', 'Balance'];
    const m = detectLayout(h)!.mapping;
    const { lines, bad } = readStatementRows(
      h,
      [
        ['01-Dec-2026', 'IMPS-612345678901-PAYU', '2,500.00', 'CR', '10,000.00'],
        ['01-Dec-2026', 'CHARGES', '59.00', 'DR', '9,941.00'],
        ['01-Dec-2026', 'ODD', '1.00', 'X', null],
      ],
      [2, 3, 4],
      m,
    );
    expect(lines.map((l) => l.amount)).toEqual([250000, -5900]);
    expect(bad).toEqual([{ rowNumber: 4, reason: '"x" is neither Dr nor Cr' }]);
  });
});
