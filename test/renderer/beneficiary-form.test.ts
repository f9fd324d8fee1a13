/** The add form's check: normalised phone, account and IFSC; the account number typed twice, the same. */
import { describe, expect, it } from 'vitest';
import { checkBeneficiary, EMPTY_VALUES } from '../../renderer/src/beneficiaries/beneficiary-form';

describe('checkBeneficiary', () => {
  it('sends what the user meant: +91 and spaces, grouped account digits, a lower-case IFSC', () => {
    const checked = checkBeneficiary({
      ...EMPTY_VALUES,
      name: '  Test  Vendor ',
      phone: '+91 98765 43210',
      account_number: '1234 5678 9012',
      confirm_account_number: '123456789012',
      ifsc: 'hdfc0001234',
    });
    expect(checked).toEqual({
      ok: true,
      beneficiary: {
        name: 'Test Vendor',
        phone: '9876543210',
        account_number: '123456789012',
        ifsc: 'HDFC0001234',
      },
    });
  });

  it('refuses an account number whose confirmation differs or is missing', () => {
    const base = { ...EMPTY_VALUES, name: 'Test Vendor', account_number: '123456789012', ifsc: 'HDFC0001234' };
    expect(checkBeneficiary({ ...base, confirm_account_number: '123456789013' })).toEqual({
      ok: false,
      errors: { confirm_account_number: 'Confirm account number does not match the account number.' },
    });
    expect(checkBeneficiary(base)).toEqual({
      ok: false,
      errors: { confirm_account_number: 'Confirm account number: type the account number again.' },
    });
  });

  it('needs no confirmation for a UPI-only payee, and still refuses what the schema refuses', () => {
    expect(checkBeneficiary({ ...EMPTY_VALUES, name: 'Shop', vpa: ' Shop@OKSBI ' })).toEqual({
      ok: true,
      beneficiary: { name: 'Shop', vpa: 'shop@oksbi' },
    });
    const bad = checkBeneficiary({ ...EMPTY_VALUES, name: 'Shop', vpa: 'shop@oksbi', phone: '+1 555 0100' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.phone).toBe('Phone must be a 10-digit Indian mobile number.');
  });
});

describe('the characters of a name', () => {
  const payee = { ...EMPTY_VALUES, vpa: 'priya@okaxis' };
  it.each(['Priya Sharma', "D'Souza & Sons (Pvt) Ltd.", 'M/s. A-1 Traders, Unit 2'])('takes %j', (name) => {
    expect(checkBeneficiary({ ...payee, name }).ok).toBe(true);
  });
  it.each([
    ['🙂 Priya Sharma', '🙂', 'U+1F642'],
    ['प्रिया', 'प', 'U+092A'],
    ['D’Souza', '’', 'U+2019'],
    ['Müller', 'ü', 'U+00FC'],
  ])('refuses %j naming %s', (name, bad, code) => {
    expect(checkBeneficiary({ ...payee, name })).toEqual({
      ok: false,
      errors: {
        name: `Name has “${bad}” (${code}), which banks refuse in a name: use only letters A to Z, digits, spaces and the marks “. , - ' & ( ) /”.`,
      },
    });
  });
});
