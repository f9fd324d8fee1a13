/**
 * Payouts: beneficiary create / fetch, payout status, payout accounts per gateway, account balances.
 * Payout amounts and balances travel in rupees (JSON numbers, or decimal strings in balance Variant A)
 * and must come out as exact paise.
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';
import { normalizeTransferStatus } from '../../../shared/api/payouts';

// ---- beneficiary create ----------------------------------------------------------------------------------

describe('beneficiary.create response', () => {
  it('Variant A: {status, message, beneficiary_id}', () => {
    expect(
      parse('beneficiary.create', {
        status: true,
        message: 'Beneficiary added successfully',
        beneficiary_id: 'bene_1001',
      }),
    ).toStrictEqual({ message: 'Beneficiary added successfully', beneficiary_id: 'bene_1001', request_id: undefined });
  });

  it('a numeric beneficiary_id (one sample shows a number) becomes text', () => {
    expect(parse('beneficiary.create', { status: true, message: 'ok', beneficiary_id: 1001 }).beneficiary_id).toBe(
      '1001',
    );
  });

  it('refuses a missing beneficiary_id and names it', () => {
    expect(refuse('beneficiary.create', { status: true, message: 'ok' })).toMatch(/^beneficiary_id: /);
  });
});

describe('beneficiary.create request', () => {
  const bank = { name: 'Asha Verma', account_number: '50100234567890', ifsc: 'HDFC0001234' };

  it('accepts a bank account, a UPI address, or both, with optional contact fields', () => {
    expect(request('beneficiary.create', bank).success).toBe(true);
    expect(request('beneficiary.create', { name: 'Asha Verma', vpa: 'asha@okhdfcbank' }).success).toBe(true);
    expect(
      request('beneficiary.create', {
        ...bank,
        vpa: 'asha@okhdfcbank',
        phone: '9876543210',
        email: 'asha@example.com',
        address: '12 MG Road, Bengaluru',
      }).success,
    ).toBe(true);
    expect(request('beneficiary.create', { ...bank, phone: '', email: '', vpa: '' }).success).toBe(true);
  });

  it('IFSC must be 4 letters, 0, then 6 letters or digits', () => {
    for (const ifsc of ['HDFC0001234', 'SBIN0ABC123'])
      expect(request('beneficiary.create', { ...bank, ifsc }).success).toBe(true);
    for (const ifsc of ['hdfc0001234', 'HDFC1001234', 'HDF00001234', 'HDFC000123', 'HDFC00012345']) {
      expect(requestIssues('beneficiary.create', { ...bank, ifsc }), ifsc).toBe(
        'ifsc: must be an IFSC code such as HDFC0001234',
      );
    }
  });

  it('phone is 10 digits', () => {
    expect(requestIssues('beneficiary.create', { ...bank, phone: '98765' })).toBe(
      'phone: must be a 10-digit Indian mobile number',
    );
    expect(requestIssues('beneficiary.create', { ...bank, phone: '98765432101' })).toMatch(/^phone: /);
    expect(requestIssues('beneficiary.create', { ...bank, phone: '98765-4321' })).toMatch(/^phone: /);
  });

  it('email must be an email address', () => {
    expect(requestIssues('beneficiary.create', { ...bank, email: 'asha.example.com' })).toBe(
      'email: must be an email address',
    );
  });

  it('account number and IFSC go together', () => {
    expect(
      requestIssues('beneficiary.create', { name: 'A', account_number: '50100234567890', vpa: 'asha@okaxis' }),
    ).toBe('ifsc: account number and IFSC go together');
    expect(requestIssues('beneficiary.create', { name: 'A', ifsc: 'HDFC0001234', vpa: 'asha@okaxis' })).toBe(
      'account_number: account number and IFSC go together',
    );
  });

  it('needs a bank account or a UPI address', () => {
    expect(requestIssues('beneficiary.create', { name: 'Asha Verma', phone: '9876543210' })).toBe(
      'account_number: give a bank account (number and IFSC) or a UPI address',
    );
  });

  it('name is required; account number is 9 to 18 digits; vpa must be a UPI address', () => {
    expect(requestIssues('beneficiary.create', { ...bank, name: '' })).toBe('name: must not be empty');
    expect(requestIssues('beneficiary.create', { ...bank, account_number: '1234' })).toBe(
      'account_number: must be 9 to 18 digits',
    );
    expect(requestIssues('beneficiary.create', { name: 'A', vpa: 'asha' })).toMatch(/^vpa: must be a UPI address/);
  });
});

// ---- beneficiary fetch -----------------------------------------------------------------------------------

const BENE_DATA_A = {
  beneficiary_id: 'bene_1001',
  name: 'Asha Verma',
  vpa: 'asha@okhdfcbank',
  account_number: '50100234567890',
  ifsc: 'HDFC0001234',
  phone: '9876543210',
  email: 'asha@example.com',
  address: '12 MG Road, Bengaluru',
};
const BENE_A = { status: true, message: 'Beneficiary details fetched', data: BENE_DATA_A };
const BENE_B = {
  status: true,
  beneficiary: {
    name: 'Asha Verma',
    email: 'asha@example.com',
    phone: '9876543210',
    vpa: 'asha@okhdfcbank',
    account: { account_no: '50100234567890', ifsc: 'HDFC0001234' },
  },
};

describe('beneficiary.fetch response', () => {
  it('Variant A: data exactly', () => {
    expect(parse('beneficiary.fetch', BENE_A)).toStrictEqual({
      message: 'Beneficiary details fetched',
      data: BENE_DATA_A,
      request_id: undefined,
    });
  });

  it('Variant A: a numeric beneficiary_id becomes text', () => {
    expect(parse('beneficiary.fetch', edit(BENE_A, 'data.beneficiary_id', 1001)).data.beneficiary_id).toBe('1001');
  });

  it('Variant B: beneficiary with nested account {account_no, ifsc} -> flat account_number / ifsc; overlap equals A', () => {
    const b = parse('beneficiary.fetch', BENE_B);
    expect(b).toStrictEqual({
      message: '',
      data: {
        name: 'Asha Verma',
        email: 'asha@example.com',
        phone: '9876543210',
        vpa: 'asha@okhdfcbank',
        account_number: '50100234567890',
        ifsc: 'HDFC0001234',
      },
      request_id: undefined,
    });
    expect(b.data).not.toHaveProperty('account');
    const a = parse('beneficiary.fetch', BENE_A).data as Record<string, unknown>;
    for (const [key, value] of Object.entries(b.data)) expect(a[key], key).toStrictEqual(value);
  });

  it('Variant B without a bank account: account_number and ifsc null', () => {
    const b = parse('beneficiary.fetch', edit(BENE_B, 'beneficiary.account', DROP));
    expect(b.data).toMatchObject({ account_number: null, ifsc: null, vpa: 'asha@okhdfcbank' });
  });

  it('keeps unknown fields on the beneficiary', () => {
    expect(parse('beneficiary.fetch', edit(BENE_A, 'data.kyc_status', 'verified')).data).toMatchObject({
      kyc_status: 'verified',
    });
    expect(parse('beneficiary.fetch', edit(BENE_B, 'beneficiary.kyc_status', 'verified')).data).toMatchObject({
      kyc_status: 'verified',
    });
  });

  it('refuses a beneficiary without name and a body with neither data nor beneficiary', () => {
    refuse('beneficiary.fetch', edit(BENE_A, 'data.name', DROP));
    refuse('beneficiary.fetch', edit(BENE_B, 'beneficiary.account.account_no', 50100234567890));
    refuse('beneficiary.fetch', { status: true, message: 'ok' });
  });
});

// ---- payout fetch ------------------------------------------------------------------------------------------

const PAYOUT_A = {
  transfer_status: true,
  error: '',
  transfer_id: 'tr_77Hq',
  ut_no: 'N067241234567890',
  amount: 1500.5,
  fund_source: 'cashfree',
  method: 'neft',
  processed_at: '2024-03-07 11:05:00',
  beneficiary: {
    name: 'Asha Verma',
    email: 'asha@example.com',
    phone: '9876543210',
    vpa: 'asha@okhdfcbank',
    account: { account_no: '50100234567890', ifsc: 'HDFC0001234' },
  },
  ack: 'ACK-5531',
};
const PAYOUT_FETCH_A = { status: true, payout: PAYOUT_A };

describe('payout.fetch response', () => {
  it('transfer_status true -> "success", amount 1500.5 rupees -> 150050 paise', () => {
    expect(parse('payout.fetch', PAYOUT_FETCH_A)).toStrictEqual({
      payout: { ...PAYOUT_A, transfer_status: 'success', amount: 150050 },
      error_code: undefined,
      error_message: undefined,
      request_id: undefined,
    });
  });

  it('transfer_status "failed" (text sample), ut_no null, gateway error riding beside the payout', () => {
    const body = {
      status: false,
      payout: {
        ...PAYOUT_A,
        transfer_status: 'failed',
        error: 'Beneficiary bank is offline',
        ut_no: null,
        amount: 250,
      },
      error_code: 4010,
      error_message: 'Beneficiary bank is offline',
    };
    expect(parse('payout.fetch', body)).toStrictEqual({
      payout: { ...body.payout, transfer_status: 'failed', amount: 25000 },
      error_code: 4010,
      error_message: 'Beneficiary bank is offline',
      request_id: undefined,
    });
  });

  it.each([
    [true, 'success'],
    [false, 'failed'],
    ['FAILED', 'failed'],
    [' Pending ', 'pending'],
    ['success', 'success'],
  ] as const)('transfer_status %j -> %j', (wire, domain) => {
    expect(parse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.transfer_status', wire)).payout.transfer_status).toBe(
      domain,
    );
    expect(normalizeTransferStatus(wire)).toBe(domain);
  });

  it('amount as a decimal string, a whole number, and a one-paisa amount', () => {
    expect(parse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.amount', '1500.50')).payout.amount).toBe(150050);
    expect(parse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.amount', 1500)).payout.amount).toBe(150000);
    expect(parse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.amount', 0.01)).payout.amount).toBe(1);
  });

  it('keeps unknown payout fields and ignores unknown top-level fields', () => {
    const out = parse('payout.fetch', { ...edit(PAYOUT_FETCH_A, 'payout.purpose', 'vendor'), trace_id: 't1' });
    expect(out.payout).toMatchObject({ purpose: 'vendor', amount: 150050 });
  });

  it('refuses a bad amount, a missing transfer_id, an ISO processed_at, and an error-only body', () => {
    expect(refuse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.amount', 'abc'))).toBe(
      'payout.amount: "abc" is not a decimal amount',
    );
    expect(refuse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.amount', 1500.505))).toBe(
      'payout.amount: "1500.505" has more than 2 decimal places',
    );
    expect(refuse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.transfer_id', DROP))).toMatch(/^payout\.transfer_id: /);
    expect(refuse('payout.fetch', edit(PAYOUT_FETCH_A, 'payout.processed_at', '2024-03-07T05:35:00Z'))).toBe(
      'payout.processed_at: expected YYYY-MM-DD HH:MM:SS',
    );
    expect(refuse('payout.fetch', { status: true, error_code: 4004, error_message: 'Payout not found' })).toMatch(
      /^payout: /,
    );
  });
});

describe('payout.fetch request', () => {
  it('fetch_type defaults to normal; advance is allowed; others are not', () => {
    expect(request('payout.fetch', { id: 'tr_77Hq' })).toMatchObject({
      success: true,
      data: { id: 'tr_77Hq', fetch_type: 'normal' },
    });
    expect(request('payout.fetch', { id: 'tr_77Hq', fetch_type: 'advance' })).toMatchObject({
      data: { fetch_type: 'advance' },
    });
    expect(requestIssues('payout.fetch', { id: 'tr_77Hq', fetch_type: 'hard' })).toMatch(/^fetch_type: /);
    expect(requestIssues('payout.fetch', { id: '' })).toBe('id: must not be empty');
  });
});

// ---- payout accounts -----------------------------------------------------------------------------------------

const CASHFREE_ACCOUNT = {
  account_number: '1234567890123',
  ifsc_code: 'YESB0CMSNOC',
  account_type: 'VIRTUAL',
  currency: 'INR',
  available_balance: 125000.75,
  account_balance: 130000,
  minimum_balance: 0,
  hold_fund: null,
  overdraft: null,
  transaction_limit: 200000,
};
const GATEWAY_ERROR = {
  status: false,
  error: { message: 'Something went wrong at the gateway', code: 'INTERNAL_SERVER_ERROR' },
};
const ACCOUNTS_A = {
  status: true,
  accounts: { cashfree: { status: true, data: [CASHFREE_ACCOUNT] }, razorpayx: GATEWAY_ERROR },
  request_id: 'req_acc1',
};

describe('payout.accounts response', () => {
  it('Variant A: balances (rupee numbers) -> paise; a failing gateway entry is kept with its error', () => {
    expect(parse('payout.accounts', ACCOUNTS_A)).toStrictEqual({
      accounts: {
        cashfree: {
          status: true,
          data: [
            {
              account_number: '1234567890123',
              ifsc_code: 'YESB0CMSNOC',
              account_type: 'VIRTUAL',
              currency: 'INR',
              available_balance: 12500075,
              account_balance: 13000000,
              minimum_balance: 0,
              hold_fund: null,
              overdraft: null,
              transaction_limit: 20000000,
            },
          ],
        },
        razorpayx: GATEWAY_ERROR,
      },
      request_id: 'req_acc1',
    });
  });

  it('numeric hold_fund / overdraft become paise; absent ones become null', () => {
    const out = parse(
      'payout.accounts',
      edit(edit(ACCOUNTS_A, 'accounts.cashfree.data.0.hold_fund', 250.25), 'accounts.cashfree.data.0.overdraft', DROP),
    );
    const entry = out.accounts.cashfree!;
    expect(entry.status).toBe(true);
    if (entry.status === true) expect(entry.data[0]).toMatchObject({ hold_fund: 25025, overdraft: null });
  });

  it('a numeric per-gateway error code is kept as text', () => {
    const out = parse('payout.accounts', edit(ACCOUNTS_A, 'accounts.razorpayx.error.code', 503));
    expect(out.accounts.razorpayx).toStrictEqual({
      status: false,
      error: { message: GATEWAY_ERROR.error.message, code: '503' },
    });
  });

  it('Variant B: [{pg, account_id, balance}] grouped by gateway; overlap equals A', () => {
    const b = parse('payout.accounts', {
      status: true,
      accounts: [
        { pg: 'cashfree', account_id: '1234567890123', balance: 125000.75 },
        { pg: 'cashfree', account_id: '9988776655', balance: 10 },
        { pg: 'payu', account_id: 4455, balance: 0.5 },
      ],
    });
    expect(b).toStrictEqual({
      accounts: {
        cashfree: {
          status: true,
          data: [
            { account_number: '1234567890123', available_balance: 12500075, hold_fund: null, overdraft: null },
            { account_number: '9988776655', available_balance: 1000, hold_fund: null, overdraft: null },
          ],
        },
        payu: {
          status: true,
          data: [{ account_number: '4455', available_balance: 50, hold_fund: null, overdraft: null }],
        },
      },
      request_id: undefined,
    });
    const a = parse('payout.accounts', ACCOUNTS_A).accounts.cashfree!;
    const first = b.accounts.cashfree!;
    if (a.status !== true || first.status !== true) throw new Error('expected successful gateway entries');
    const aAccount = a.data[0] as Record<string, unknown>;
    for (const [key, value] of Object.entries(first.data[0]!)) expect(aAccount[key], key).toStrictEqual(value);
  });

  it('keeps unknown fields on an account and on a gateway entry', () => {
    const out = parse(
      'payout.accounts',
      edit(edit(ACCOUNTS_A, 'accounts.cashfree.data.0.nickname', 'Main'), 'accounts.cashfree.fetched_at', '2024-03-07'),
    );
    expect(out.accounts.cashfree).toMatchObject({ fetched_at: '2024-03-07', data: [{ nickname: 'Main' }] });
  });

  it('refuses a malformed balance, a success entry without data, an error entry without message', () => {
    refuse('payout.accounts', edit(ACCOUNTS_A, 'accounts.cashfree.data.0.available_balance', 'abc'));
    refuse('payout.accounts', edit(ACCOUNTS_A, 'accounts.cashfree.data', DROP));
    refuse('payout.accounts', edit(ACCOUNTS_A, 'accounts.razorpayx.error.message', DROP));
    refuse('payout.accounts', { status: true, accounts: [{ pg: 'cashfree', account_id: '1', balance: '1.001' }] });
  });
});

describe('payout.accounts and payout.balance requests', () => {
  it('pg and account_number are optional, but not empty', () => {
    expect(request('payout.accounts', {}).success).toBe(true);
    expect(request('payout.accounts', { pg: 'cashfree' }).success).toBe(true);
    expect(requestIssues('payout.accounts', { pg: '' })).toBe('pg: must not be empty');
    expect(request('payout.balance', {}).success).toBe(true);
    expect(request('payout.balance', { pg: 'cashfree', account_number: '1234567890123' }).success).toBe(true);
    expect(requestIssues('payout.balance', { account_number: ' ' })).toBe('account_number: must not be empty');
  });

  it('beneficiary fetch needs an id', () => {
    expect(request('beneficiary.fetch', { id: 'bene_1001' }).success).toBe(true);
    expect(requestIssues('beneficiary.fetch', {})).toMatch(/^id: /);
  });
});

// ---- balance ---------------------------------------------------------------------------------------------------

const BALANCE_A = {
  status: 'true',
  account: {
    cashfree: { account_no: '1234567890123', balance: '125000.75' },
    razorpayx: { account_no: '7878000012345', balance: '0.00' },
  },
};

describe('payout.balance response', () => {
  it('Variant A: status "true", account keyed by gateway with string account_no / balance -> paise', () => {
    expect(parse('payout.balance', BALANCE_A)).toStrictEqual({
      balances: [
        { pg: 'cashfree', account_no: '1234567890123', balance: 12500075 },
        { pg: 'razorpayx', account_no: '7878000012345', balance: 0 },
      ],
      request_id: undefined,
    });
  });

  it('Variant B: status true, balances [{pg, balance number}] -> the same domain shape', () => {
    const b = parse('payout.balance', {
      status: true,
      balances: [
        { pg: 'cashfree', balance: 125000.75 },
        { pg: 'razorpayx', balance: 0 },
      ],
    });
    expect(b).toStrictEqual({
      balances: [
        { pg: 'cashfree', balance: 12500075 },
        { pg: 'razorpayx', balance: 0 },
      ],
      request_id: undefined,
    });
    const a = parse('payout.balance', BALANCE_A).balances;
    expect(b.balances.map(({ pg, balance }) => ({ pg, balance }))).toStrictEqual(
      a.map(({ pg, balance }) => ({ pg, balance })),
    );
  });

  it('ignores unknown fields and accepts a boolean status in Variant A too', () => {
    const out = parse('payout.balance', { ...BALANCE_A, status: true, as_of: '2024-03-07 10:00:00' });
    expect(out.balances).toHaveLength(2);
  });

  it('refuses status false, a balance needing rounding, and a body with neither account nor balances', () => {
    expect(refuse('payout.balance', { ...BALANCE_A, status: 'false' })).toBeTruthy();
    refuse('payout.balance', edit(BALANCE_A, 'account.cashfree.balance', '1.005'));
    refuse('payout.balance', { status: true, balances: [{ pg: 'cashfree' }] });
    refuse('payout.balance', { status: 'true' });
  });
});

// ---- known contract bugs ---------------------------------------------------------------------------------

/** See orders.test.ts: describeIssues prints `<path>: Invalid input` for a failed Variant A|B union. */
describe('known contract bugs: describeIssues does not name the field inside a Variant A|B union', () => {
  it('beneficiary.fetch without data.name names data.name', () => {
    expect(refuse('beneficiary.fetch', edit(BENE_A, 'data.name', DROP))).toMatch(/^data\.name: /);
  });

  it('payout.accounts with a bad balance names accounts.cashfree.data.0.available_balance and the reason', () => {
    expect(refuse('payout.accounts', edit(ACCOUNTS_A, 'accounts.cashfree.data.0.available_balance', 'abc'))).toBe(
      'accounts.cashfree.data.0.available_balance: "abc" is not a decimal amount',
    );
  });

  it('payout.balance with "1.005" names account.cashfree.balance and the reason', () => {
    expect(refuse('payout.balance', edit(BALANCE_A, 'account.cashfree.balance', '1.005'))).toBe(
      'account.cashfree.balance: "1.005" has more than 2 decimal places',
    );
  });
});
