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
    expect(m.problems).toEqual([
      'The columns "Vendor", "A/c", "Branch code", "GSTIN" are not mapped: choose a field for each or leave it out.',
      'No column is the Name.',
      'No column is the Account number or the UPI address.',
    ]);
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
  it('stops the import while any column is neither known, mapped nor left out', () => {
    // The walk-through's file: every field column known, one column the console cannot guess.
    const headers = ['Name', 'Account number', 'IFSC', 'Remarks'];
    expect(mapColumns(headers).problems).toEqual([
      'The column "Remarks" is not mapped: choose its field or leave it out.',
    ]);
    expect(mapColumns(headers, { Remarks: 'ignore' }).problems).toEqual([]);
  });
  it('refuses two columns for one field', () => {
    expect(mapColumns(['Name', 'name', 'vpa']).problems).toEqual(['Two columns are Name: "Name" and "name".']);
  });
});

/**
 * The header rows of the bulk-payee templates desks bring, each with the field each column is and the columns left
 * for the person to map or leave out. Where a template's exact header row could not be confirmed from the provider's
 * own published template, the comment says so and what the row is instead: these are not invented as theirs.
 */
describe('bulk-payee templates', () => {
  const fieldsOf = (headers: string[]) => {
    const m = mapColumns(headers);
    return { fields: m.fields, unknown: m.unknown };
  };

  it('RazorpayX: the fund-account columns of its contacts and fund accounts bulk upload', () => {
    // The field names razorpay.com/docs/x/contacts/bulk-uploads lists for its sample CSV. Its contact columns
    // (contact name, type, email, mobile, reference) are not listed there by their exact headers, so they are not
    // here; "Fund Account Type" (bank_account or vpa) is no field of ours and is for the person to leave out.
    expect(
      fieldsOf([
        'Fund Account Type',
        'Fund Account Name',
        'Fund Account Ifsc',
        'Fund Account Number',
        'Fund Account Vpa',
        'Fund Account Phone Number',
        'Fund Account Email',
      ]),
    ).toEqual({
      fields: [null, 'name', 'ifsc', 'account_number', 'vpa', 'phone', 'email'],
      unknown: ['Fund Account Type'],
    });
  });

  it('Cashfree: its add-beneficiary fields, as a file exported from an integration names them', () => {
    // The body fields of Cashfree Payouts' addBeneficiary (cashfree.com/docs/api-reference/payouts/v1/add-beneficiary).
    // The headers of the Payouts Dashboard's own bulk-beneficiary sample file could not be confirmed.
    expect(
      fieldsOf([
        'beneId',
        'name',
        'email',
        'phone',
        'bankAccount',
        'ifsc',
        'vpa',
        'address1',
        'address2',
        'city',
        'state',
        'pincode',
      ]),
    ).toEqual({
      fields: [null, 'name', 'email', 'phone', 'account_number', 'ifsc', 'vpa', 'address', null, null, null, null],
      unknown: ['beneId', 'address2', 'city', 'state', 'pincode'],
    });
  });

  it('HDFC Bank: a beneficiary upload with "Beneficiary …" headers', () => {
    // Not confirmed against HDFC's own template (its ENet vendor-payment file is a headerless CSV built by its
    // spreadsheet): the headers a desk's payee list for HDFC uploads carries, as the walk-through (issue 30) saw them.
    expect(
      fieldsOf([
        'Beneficiary Name',
        'Beneficiary Account Number',
        'IFSC Code',
        'Beneficiary Email ID',
        'Beneficiary Mobile No',
        'Beneficiary Address',
      ]),
    ).toEqual({ fields: ['name', 'account_number', 'ifsc', 'email', 'phone', 'address'], unknown: [] });
  });

  it('ICICI Bank: a beneficiary upload with "Bene …" headers', () => {
    // Not confirmed against ICICI's own corporate-banking template: the "Bene" abbreviations its users' files carry.
    expect(
      fieldsOf(['Bene Name', 'Bene A/c No', 'Bene IFSC', 'Bene Email ID', 'Bene Mobile No', 'Bene Address']),
    ).toEqual({ fields: ['name', 'account_number', 'ifsc', 'email', 'phone', 'address'], unknown: [] });
  });

  it('State Bank of India: a beneficiary upload with "A/C No." headers', () => {
    // Not confirmed against SBI's own bulk-beneficiary template: the headers of the walk-through's SBI-style file.
    expect(fieldsOf(['Beneficiary Name', 'A/C No.', 'IFSC', 'Email ID', 'Mobile No.', 'Address'])).toEqual({
      fields: ['name', 'account_number', 'ifsc', 'email', 'phone', 'address'],
      unknown: [],
    });
  });

  it('the headers the walk-through found unrecognised', () => {
    // Issue 30, item 8, as written there.
    expect(fieldsOf(['Beneficiary Name', 'Bank A/c No', 'Bene IFSC', 'Email ID', 'Mobile No.'])).toEqual({
      fields: ['name', 'account_number', 'ifsc', 'email', 'phone'],
      unknown: [],
    });
    expect(mapColumns(['Beneficiary Name', 'A/C No.', 'IFSC*']).fields).toEqual(['name', 'account_number', 'ifsc']);
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
