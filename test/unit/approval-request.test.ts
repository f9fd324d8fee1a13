/**
 * The frozen request as the Approvals screen and `approvals show` print it: labels a person reads, never a field's
 * wire name, and every amount in figures and words.
 */
import { describe, expect, it } from 'vitest';
import { requestLines } from '../../shared/approval-request';
import { planForm } from '../../shared/plans';

const WIRE_NAME = /_|[a-z][A-Z]/;

describe('requestLines', () => {
  it('labels a refund and shows its amount in figures and words, or what a full refund means', () => {
    const partial = { action: 'order.refund' as const, request: { orderId: 'ord_1', amount: 12_345 }, currency: 'INR' };
    expect(requestLines(partial)).toEqual([
      ['Order', 'ord_1'],
      ['Amount', '₹123.45 (Rupees one hundred twenty-three and paise forty-five)'],
    ]);
    const full = { ...partial, request: { orderId: 'ord_1', amount: null } };
    expect(requestLines(full)).toContainEqual(['Amount', 'the whole refundable amount']);
  });

  it("reads a plan's amount (the text of its paise) in figures and words, and names every field", () => {
    const plan = planForm.parse({
      title: 'Gold',
      amount: '499',
      frequency: '30',
      cycle: '12',
      currency: 'INR',
      mer_reference_id: 'gold-1',
      notes: { udf1: 'desk' },
    });
    const lines = requestLines({ action: 'plan.create', request: { plan }, currency: 'INR' });
    expect(lines).toContainEqual(['Amount', '₹499.00 (Rupees four hundred ninety-nine)']);
    expect(lines).toContainEqual(['Your reference', 'gold-1']);
    expect(lines.map(([label]) => label).filter((l) => WIRE_NAME.test(l))).toEqual([]);
  });

  it("names a webhook change's fields and an import's payees, one line each", () => {
    const webhook = requestLines({
      action: 'webhook.deactivate',
      request: { change: { id: 'wh_1', active: false } },
      currency: null,
    });
    expect(webhook).toEqual([
      ['Webhook', 'wh_1'],
      ['Active', 'No'],
    ]);
    const batch = requestLines({
      action: 'beneficiary.import',
      request: {
        fileName: 'payees.csv',
        digest: 'ab'.repeat(32),
        rows: [{ row: 2, beneficiary: { name: 'Meera Iyer', account_number: '001122334455', ifsc: 'HDFC0000001' } }],
      },
      currency: null,
    });
    expect(batch).toContainEqual(['Row 2', 'Name Meera Iyer · Account number 001122334455 · IFSC HDFC0000001']);
    expect([...webhook, ...batch].map(([label]) => label).filter((l) => WIRE_NAME.test(l))).toEqual([]);
  });
});
