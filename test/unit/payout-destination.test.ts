/**
 * Where a payout's money went, read from the service's answer: the method decides between the account and the
 * UPI address the service sends for the payee, and blank text from the service is absent, never a route.
 */
import { describe, expect, it } from 'vitest';
import { payoutFetchResponse } from '../../shared/api/payouts';
import { destinationText, payoutDestination } from '../../shared/payouts';

/** A payout answer as the wire carries it (rupees), through the API schema the client uses. */
function wire(method: string | undefined, beneficiary: Record<string, unknown>) {
  return payoutFetchResponse.parse({
    status: true,
    payout: { transfer_status: 'success', transfer_id: 'TRF1', amount: 10.5, method, beneficiary },
  }).payout;
}

describe('payoutDestination', () => {
  it('IMPS to a bank account: the empty vpa the service sends is absent, the account shows masked with IFSC', () => {
    const p = wire('imps', { name: 'A', vpa: '', account: { account_no: '001234567890', ifsc: 'HDFC0001234' } });
    expect(p.beneficiary?.vpa).toBeNull();
    expect(payoutDestination(p)).toEqual({ kind: 'account', accountNumber: '001234567890', ifsc: 'HDFC0001234' });
    expect(destinationText(payoutDestination(p))).toBe('•••••7890 (HDFC0001234)');
  });

  it('NEFT to a payee with both routes: the account it went to, not the UPI address', () => {
    const p = wire('NEFT', { name: 'B', vpa: 'b@okaxis', account: { account_no: '5555666677', ifsc: 'ICIC0000001' } });
    expect(destinationText(payoutDestination(p))).toBe('•••••6677 (ICIC0000001)');
  });

  it('UPI to a payee with both routes: the UPI address; with an empty account it is absent', () => {
    const both = wire('upi', { name: 'C', vpa: 'c@ybl', account: { account_no: '5555666677', ifsc: 'ICIC0000001' } });
    expect(payoutDestination(both)).toEqual({ kind: 'upi', vpa: 'c@ybl' });
    const onlyUpi = wire('upi', { name: 'C', vpa: 'c@ybl', account: { account_no: '', ifsc: '' } });
    expect(onlyUpi.beneficiary?.account).toEqual({ account_no: null, ifsc: null });
    expect(destinationText(payoutDestination(onlyUpi))).toBe('c@ybl');
  });

  it('blank everywhere is no destination; an unknown method shows the one route present', () => {
    expect(payoutDestination(wire('imps', { name: 'D', vpa: '  ', account: { account_no: '', ifsc: '' } }))).toBeNull();
    expect(payoutDestination(wire(undefined, { name: 'E', vpa: 'e@upi', account: null }))).toEqual({
      kind: 'upi',
      vpa: 'e@upi',
    });
    // A cached answer from before blank text was read as absent still holds "": it is absent too.
    const cached = { method: 'imps', beneficiary: { vpa: '', account: { account_no: '99887766', ifsc: '' } } };
    expect(destinationText(payoutDestination(cached))).toBe('•••••7766');
  });
});
