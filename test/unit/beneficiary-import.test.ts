/** The import's pure part: which column is which field, a cell as a field's text, each row checked like the form. */
import { describe, expect, it } from 'vitest';
import { normaliseBeneficiaryText } from '../../shared/beneficiaries';
import { cellText, checkRows, mapColumns, type SheetCell } from '../../shared/beneficiary-import';

describe('normaliseBeneficiaryText', () => {
  it.each([
    ['phone', '+91 98765 43210', '9876543210'],
    ['phone', '12345', '12345'],
    ['phone', '0 98765 43210', '9876543210'],
    ['phone', '919876543210', '9876543210'],
    ['phone', '0091 98765 43210', '9876543210'],
    ['phone', '(987) 654-3210', '9876543210'],
    ['account_number', '1234 5678 9012', '123456789012'],
    ['account_number', ' 0012-3456-7890 ', '001234567890'],
    ['ifsc', ' hdfc 0001234', 'HDFC0001234'],
    ['vpa', ' Vendor@OKHDFC ', 'vendor@okhdfc'],
    ['name', '  Acme   Traders\tLtd ', 'Acme Traders Ltd'],
  ] as const)('%s %j → %j', (field, typed, want) => {
    expect(normaliseBeneficiaryText(field, typed)).toBe(want);
  });
});

describe('cellText', () => {
  it('keeps a text account number as typed, leading zeros and all', () => {
    expect(cellText('account_number', '000123456789')).toEqual({ text: '000123456789' });
  });
  it('pads a number cell back to the width of its 000…0 format', () => {
    expect(cellText('account_number', { number: 123456789, format: '000000000000' })).toEqual({
      text: '000123456789',
    });
    expect(cellText('account_number', { number: 123456789012, format: 'General' })).toEqual({ text: '123456789012' });
  });
  it('refuses a number that has lost digits, never guessing them', () => {
    expect(cellText('account_number', { number: 1234567890123456, format: null })).toMatchObject({
      problem: expect.stringMatching(/more than 15 digits/),
    });
    expect(cellText('account_number', { number: 1.23456789012e17, format: null })).toMatchObject({
      problem: expect.stringMatching(/more than 15 digits|whole number/),
    });
    expect(cellText('account_number', { number: 12345.5, format: null })).toMatchObject({
      problem: expect.stringMatching(/not a whole number/),
    });
    expect(cellText('account_number', '1.23457E+17')).toMatchObject({ problem: expect.stringMatching(/exponent/) });
  });
});

describe('mapColumns', () => {
  it("knows the template's headers, the interface's field names and common others, in any case", () => {
    const m = mapColumns(['Name', 'account_number', 'IFSC Code', 'UPI ID', 'Mobile', 'E-mail', 'address']);
    expect(m.fields).toEqual(['name', 'account_number', 'ifsc', 'vpa', 'phone', 'email', 'address']);
    expect(m.unknown).toEqual([]);
    expect(m.problems).toEqual([]);
  });
  it('lists unknown headers for the mapping step, and the mapping wins', () => {
    const m = mapColumns(['Vendor', 'A/c', 'Branch code', 'GSTIN']);
    expect(m.unknown).toEqual(['Vendor', 'A/c', 'Branch code', 'GSTIN']);
    expect(m.problems).toEqual(['No column is the Name.', 'No column is the Account number or the UPI address.']);
    const mapped = mapColumns(['Vendor', 'A/c', 'Branch code', 'GSTIN'], {
      vendor: 'name',
      'A/c': 'account_number',
      'Branch code': 'ifsc',
      GSTIN: 'ignore',
    });
    expect(mapped.fields).toEqual(['name', 'account_number', 'ifsc', null]);
    expect(mapped.unknown).toEqual([]);
    expect(mapped.problems).toEqual([]);
  });
  it('refuses two columns for one field', () => {
    expect(mapColumns(['Name', 'name', 'vpa']).problems).toEqual(['Two columns are Name: "Name" and "name".']);
  });
});

describe('checkRows', () => {
  const columns = mapColumns(['Name', 'Account number', 'IFSC', 'UPI address', 'Phone']);
  const rows: SheetCell[][] = [
    ['Acme', '001234567890', 'hdfc0001234', null, '+91 98765 43210'],
    ['Bad IFSC', '001234567891', 'HDFC001234', null, null],
    ['Acme again', '0012 3456 7890', 'HDFC0001234', null, null],
    ['Upi only', null, null, 'Shop@OKSBI', null],
    ['Upi twice', null, null, 'shop@oksbi', null],
    ['', '111122223333', 'SBIN0000001', null, null],
    ['Lost digits', { number: 1234567890123456, format: null }, 'SBIN0000001', null, null],
  ];
  const checked = checkRows(columns, rows);

  it('numbers rows as the sheet does and normalises what it sends', () => {
    expect(checked.map((c) => c.row)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(checked[0]).toMatchObject({
      fields: { name: 'Acme', account_number: '001234567890', ifsc: 'HDFC0001234', phone: '9876543210' },
      problems: [],
      duplicateOfRow: null,
    });
  });
  it("refuses what the form's schema refuses, per field", () => {
    expect(checked[1]!.fields).toBeNull();
    expect(checked[1]!.problems).toEqual([{ field: 'ifsc', message: expect.stringMatching(/IFSC/) }]);
    expect(checked[5]!.problems).toEqual([{ field: 'name', message: 'must not be empty' }]);
    expect(checked[6]!.problems).toEqual([{ field: 'account_number', message: expect.stringMatching(/15 digits/) }]);
  });
  it('marks a later row with the same account + IFSC or UPI address as a duplicate of the first', () => {
    expect(checked[2]!.duplicateOfRow).toBe(2);
    expect(checked[3]!.duplicateOfRow).toBeNull();
    expect(checked[4]!.duplicateOfRow).toBe(5);
  });
});

describe('a name with a character banks refuse', () => {
  const columns = mapColumns(['Name', 'UPI address']);
  it('is an invalid row whose reason names the character and the rule', () => {
    const [row] = checkRows(columns, [['🙂 Priya Sharma', 'priya@okaxis']]);
    expect(row!.fields).toBeNull();
    expect(row!.problems).toEqual([
      {
        field: 'name',
        message:
          "has “🙂” (U+1F642), which banks refuse in a name: use only letters A to Z, digits, spaces and the marks “. , - ' & ( ) /”",
      },
    ]);
  });
});
