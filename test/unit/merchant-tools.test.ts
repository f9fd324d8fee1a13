/** The pure parts of the payment tools, plans, webhooks and classification forms. */
import { describe, expect, it } from 'vitest';
import { CLASSIFY_LIMITS } from '../../shared/api/classification';
import { classifyProblems, explainClassifyStatus, parseQuestions, parseState } from '../../shared/classification';
import { convertExactly, groupMethods, isUpiLink, processFieldsFor, processForm } from '../../shared/payment-tools';
import { planForm } from '../../shared/plans';
import { parseRupees } from '../../shared/rupees';
import { splitTopics, webhookEdit } from '../../shared/webhooks';

describe('parseRupees', () => {
  it.each([
    ['1,00,000.50', 10_000_050],
    ['100,000', 10_000_000],
    ['0.01', 1],
    [' 499 ', 49_900],
    ['12.5', 1250],
  ])('%s is %i paise', (text, minor) => expect(parseRupees(text)).toEqual({ ok: true, minor }));

  it.each([
    ['12.345', /two decimal places/],
    ['-5', /negative/],
    ['0', /more than zero/],
    ['0.00', /more than zero/],
    ['', /Enter an amount/],
    ['1e3', /such as/],
    ['1,0,0', /such as/],
    ['99999999999999999', /too large/],
  ])('refuses %j', (text, why) => {
    const r = parseRupees(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });
});

describe('groupMethods', () => {
  it('puts favourite banks first, keeps health, orders sections by priority and reads every flag', () => {
    const g = groupMethods({
      netbanking: {
        priority: 3,
        data: [
          { code: 'A', title: 'Alpha', health: true },
          { code: 'B', title: 'Beta', health: false, favorite: true },
        ],
      },
      upi: { priority: 1, data: { collect: 'Collect' } },
      creditcard: { data: [{ code: 'VISA', title: 'Visa' }] },
      wallet: true,
      emi: false,
      convenience_fee: { amount: 100 },
    });
    expect(g.netbanking).toEqual([
      { code: 'B', title: 'Beta', healthy: false, favourite: true },
      { code: 'A', title: 'Alpha', healthy: true, favourite: false },
    ]);
    expect(g.order).toEqual(['upi', 'netbanking', 'creditcard']);
    expect(g.flags.find((f) => f.key === 'wallet')).toMatchObject({ on: true, value: null });
    expect(g.flags.find((f) => f.key === 'emi')).toMatchObject({ on: false });
    expect(g.flags.find((f) => f.key === 'intent')).toMatchObject({ on: null });
    expect(g.flags.find((f) => f.key === 'convenience_fee')).toMatchObject({ on: true, value: '{"amount":100}' });
  });
});

describe('process order form', () => {
  it('asks for what each method and code need', () => {
    expect(processFieldsFor('upi', 'collect')).toMatchObject({ vpa: true, device: false });
    expect(processFieldsFor('upi', 'intent')).toMatchObject({ vpa: false, device: true });
    expect(processFieldsFor('nb', 'HDFC')).toMatchObject({ vpa: false, device: false, codes: null });
    expect(processFieldsFor('card', 'card')).toMatchObject({ card: true });
  });

  it('sends only the fields the method uses, and never a card', () => {
    const intent = processForm.parse({ order_id: 'o1', method: 'upi', code: 'intent', vpa: 'x@y', device: 'ios' });
    expect(intent).toEqual({ order_id: 'o1', method: 'upi', code: 'intent', device: 'ios' });
    const nb = processForm.parse({ order_id: 'o1', method: 'nb', code: 'HDFC', device: 'ios' });
    expect(nb).toEqual({ order_id: 'o1', method: 'nb', code: 'HDFC' });
    expect(processForm.safeParse({ order_id: 'o1', method: 'card', code: 'card' }).success).toBe(false);
    expect(processForm.safeParse({ order_id: 'o1', method: 'upi', code: 'collect', vpa: 'bad' }).success).toBe(false);
  });

  it('shows a QR code only for upi:// links', () => {
    expect(isUpiLink('upi://pay?pa=a@b')).toBe(true);
    expect(isUpiLink('https://checkout.example/pay')).toBe(false);
    expect(isUpiLink(null)).toBe(false);
  });
});

describe('convertExactly', () => {
  it('multiplies paise by a decimal rate with every digit', () => {
    expect(convertExactly(1234, '83.25')).toBe('1027.305');
    expect(convertExactly(100, '0.012012')).toBe('0.012012');
    expect(convertExactly(10, '3')).toBe('0.3');
    expect(convertExactly(9_007_199_254_740_991, '1.5')).toBe('135107988821114.865');
    expect(() => convertExactly(1, '1e3')).toThrow();
  });
});

describe('planForm', () => {
  it('turns rupees into paise text and drops empty notes', () => {
    const plan = planForm.parse({
      title: ' Gold ',
      amount: '1,499.50',
      frequency: '30',
      cycle: 12,
      currency: 'inr',
      mer_reference_id: 'G-1',
      notes: { udf1: 'a', udf2: '' },
    });
    expect(plan).toEqual({
      title: 'Gold',
      description: '',
      amount: '149950',
      frequency: 30,
      cycle: 12,
      currency: 'INR',
      mer_reference_id: 'G-1',
      notes: { udf1: 'a' },
    });
    const bad = planForm.safeParse({
      title: 'x',
      amount: '1.001',
      frequency: 0,
      cycle: 'two',
      currency: 'IN',
      mer_reference_id: '',
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'amount',
      'currency',
      'cycle',
      'frequency',
      'mer_reference_id',
    ]);
  });
});

describe('webhookEdit', () => {
  it('takes https only, any dotted topic, and needs a change', () => {
    expect(webhookEdit.safeParse({ id: 'wh_1', url: 'https://a.example/h' }).success).toBe(true);
    expect(webhookEdit.safeParse({ id: 'wh_1', url: 'http://a.example/h' }).success).toBe(false);
    expect(webhookEdit.safeParse({ id: 'wh_1', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(webhookEdit.safeParse({ id: 'wh_1', topics: ['refund.processed'] }).success).toBe(true);
    expect(webhookEdit.safeParse({ id: 'wh_1', topics: ['Refund Processed'] }).success).toBe(false);
    expect(webhookEdit.safeParse({ id: 'wh_1' }).success).toBe(false);
    expect(splitTopics('order.paid, order.failed\norder.paid')).toEqual(['order.paid', 'order.failed']);
  });
});

describe('classification', () => {
  it('reads the state as text or JSON, and questions alone or inside a request', () => {
    expect(parseState('{"a":1}', 'text')).toEqual({ ok: true, state: '{"a":1}' });
    expect(parseState('{"a":1}', 'json')).toEqual({ ok: true, state: { a: 1 } });
    expect(parseState('[]', 'json').ok).toBe(false);
    expect(parseState('42', 'json').ok).toBe(false);
    expect(parseState('{', 'json').ok).toBe(false);
    expect(parseState('  ', 'text').ok).toBe(false);
    const q = { a: { type: 'noul', instructions: 'x' } };
    expect(parseQuestions(JSON.stringify({ questions: q }))).toEqual({ ok: true, questions: q });
    expect(parseQuestions(JSON.stringify(q))).toEqual({ ok: true, questions: q });
    expect(parseQuestions('[1]').ok).toBe(false);
  });

  it('names every broken limit before sending', () => {
    const q = { a: { type: 'noul', instructions: 'x' } };
    expect(classifyProblems({ state: 'hi', questions: q })).toEqual([]);
    expect(classifyProblems({ state: 'x'.repeat(CLASSIFY_LIMITS.maxBodyBytes), questions: q }).join()).toMatch(
      /32 KiB/,
    );
    expect(classifyProblems({ state: 'hi', questions: {} }).join()).toMatch(/1 to 4/);
    const score = { s: { type: 'score', instructions: 'x', criteria: ['only one'] } };
    expect(classifyProblems({ state: 'hi', questions: score }).length).toBeGreaterThan(0);
  });

  it('says each documented status in plain words', () => {
    expect(explainClassifyStatus(401)).toMatch(/account manager/);
    expect(explainClassifyStatus(413)).toMatch(/32 KiB/);
    expect(explainClassifyStatus(422)).toMatch(/more than 4 questions/);
    expect(explainClassifyStatus(429)).toMatch(/too many requests/);
    expect(explainClassifyStatus(502)).toMatch(/safe/);
    expect(explainClassifyStatus(404)).toBeNull();
  });
});
