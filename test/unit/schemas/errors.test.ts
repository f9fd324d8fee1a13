/**
 * Error bodies: readErrorBody reads the documented envelopes into {code, message, requestId}; readLooseErrorMessage
 * reads the classification-style bodies. A success body is not an error.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, readErrorBody, readLooseErrorMessage } from '../../../shared/api/errors';
import { OPERATIONS } from '../../../shared/api/operations';

describe('readErrorBody', () => {
  it('standard envelope with an integer code and request_id', () => {
    expect(
      readErrorBody({ status: false, error: { message: 'Hash is not verified', code: 204 }, request_id: 'req_e1' }),
    ).toStrictEqual({
      code: 204,
      message: 'Hash is not verified',
      requestId: 'req_e1',
    });
  });

  it('standard envelope for the documented codes', () => {
    expect(
      readErrorBody({ status: false, error: { message: 'Subscription already cancelled.', code: 1035 } }),
    ).toStrictEqual({
      code: ERROR_CODES.alreadyCancelled,
      message: 'Subscription already cancelled.',
      requestId: undefined,
    });
    expect(readErrorBody({ status: false, error: { message: 'Something went wrong', code: 202 } })?.code).toBe(
      ERROR_CODES.generic,
    );
    expect(
      readErrorBody({ status: 'false', error: { message: 'Refund amount exceeds order amount', code: 204 } }),
    ).toMatchObject({
      code: 204,
      message: 'Refund amount exceeds order amount',
    });
  });

  it('standard envelope without a code gives code null', () => {
    expect(readErrorBody({ status: false, error: { message: 'Order not found' } })).toStrictEqual({
      code: null,
      message: 'Order not found',
      requestId: undefined,
    });
  });

  it('Variant B {status:false, message:"Invalid request"}', () => {
    expect(readErrorBody({ status: false, message: 'Invalid request' })).toStrictEqual({
      code: null,
      message: 'Invalid request',
      requestId: undefined,
    });
    expect(readErrorBody({ status: false, message: 'Invalid request', code: 400 })?.code).toBe(
      ERROR_CODES.invalidRequest,
    );
  });

  it.each([true, false])('payout error {status:%s, error_code, error_message}', (status) => {
    expect(readErrorBody({ status, error_code: 4004, error_message: 'Payout not found' })).toStrictEqual({
      code: 4004,
      message: 'Payout not found',
      requestId: undefined,
    });
  });

  it('success bodies are not errors', () => {
    expect(readErrorBody({ status: true, message: 'Order captured successfully' })).toBeNull();
    expect(
      readErrorBody({ status: true, order: { order_id: 'o', amount: 1, currency: 'INR', order_status: 'success' } }),
    ).toBeNull();
    expect(readErrorBody({ status: 'true', account: { cashfree: { account_no: '1', balance: '1.00' } } })).toBeNull();
  });

  it('bodies that match no envelope are not read as errors', () => {
    expect(readErrorBody(null)).toBeNull();
    expect(readErrorBody('Internal Server Error')).toBeNull();
    expect(readErrorBody({})).toBeNull();
    expect(readErrorBody({ status: false })).toBeNull();
    expect(readErrorBody({ status: false, error: 'plain text' })).toBeNull();
    expect(readErrorBody({ error: 'Unauthorized' })).toBeNull();
  });
});

describe('per-gateway error inside payout accounts', () => {
  const body = {
    status: true,
    accounts: {
      cashfree: {
        status: true,
        data: [{ account_number: '1234567890123', available_balance: 10.5, hold_fund: null, overdraft: null }],
      },
      razorpayx: { status: false, error: { message: 'Upstream timeout', code: 'INTERNAL_SERVER_ERROR' } },
    },
  };

  it('the overall body is a success, not an error', () => {
    expect(readErrorBody(body)).toBeNull();
  });

  it('the failing gateway entry is kept in the normalized output beside the working one', () => {
    const out = OPERATIONS['payout.accounts'].response.parse(body);
    expect(out.accounts.razorpayx).toStrictEqual({
      status: false,
      error: { message: 'Upstream timeout', code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(out.accounts.cashfree).toMatchObject({ status: true, data: [{ available_balance: 1050 }] });
  });
});

describe('readLooseErrorMessage (classification and proxies)', () => {
  it.each([
    [{ error: 'Invalid credentials' }, 'Invalid credentials'],
    [{ error: { message: 'Request body exceeds 32 KiB' } }, 'Request body exceeds 32 KiB'],
    [{ detail: [{ loc: ['body', 'state'], msg: 'field required' }] }, 'field required'],
    [
      { detail: [{ msg: 'field required' }, { msg: 'more than 4 questions' }] },
      'field required; more than 4 questions',
    ],
    [{ detail: 'Not authenticated' }, 'Not authenticated'],
    [{ message: 'Too many requests' }, 'Too many requests'],
  ])('%j -> %j', (body, message) => {
    expect(readLooseErrorMessage(body)).toBe(message);
  });

  it('prefers error over detail over message', () => {
    expect(readLooseErrorMessage({ error: 'e', detail: 'd', message: 'm' })).toBe('e');
    expect(readLooseErrorMessage({ detail: 'd', message: 'm' })).toBe('d');
  });

  it('is null for a body without a message and for non-objects', () => {
    expect(readLooseErrorMessage({})).toBeNull();
    expect(readLooseErrorMessage({ answers: {}, usage: { input_tokens: 1, output_tokens: 1 } })).toBeNull();
    expect(readLooseErrorMessage(null)).toBeNull();
    expect(readLooseErrorMessage('Bad Gateway')).toBeNull();
    expect(readLooseErrorMessage({ error: 42 })).toBeNull();
  });
});
