/**
 * The operation registry: 24 operations with host / path / auth as the document lists them, unsafe ones
 * with advice after an unknown outcome, path parameters, and describeIssues' formatting.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  OPERATIONS,
  OPERATION_NAMES,
  describeIssues,
  resolvePath,
  type OperationSpec,
} from '../../../shared/api/operations';

const specs = OPERATION_NAMES.map((name) => [name, OPERATIONS[name] as OperationSpec] as const);

describe('OPERATIONS registry', () => {
  it('has the 24 operations of the interface, each once', () => {
    expect(OPERATION_NAMES.length).toBe(24);
    expect(new Set(OPERATION_NAMES).size).toBe(24);
    expect(new Set(specs.map(([, s]) => s.path)).size).toBe(24);
  });

  it.each(specs)('%s has host, path, auth, credentials, request and response', (_name, spec) => {
    expect(['base', 'ai']).toContain(spec.host);
    expect(spec.path).toMatch(/^\/(api\/v[12]|v1)\//);
    expect(['basic', 'body']).toContain(spec.auth);
    expect(['key+hash', 'key', 'none']).toContain(spec.credentials);
    expect(spec.title.length).toBeGreaterThan(0);
    expect(spec.request).toBeInstanceOf(z.ZodType);
    expect(spec.response).toBeInstanceOf(z.ZodType);
  });

  it('every unsafe operation says what to check after an unknown outcome', () => {
    const unsafe = specs.filter(([, s]) => !s.safe);
    expect(unsafe.map(([n]) => n).sort()).toStrictEqual(
      [
        'beneficiary.create',
        'order.capture',
        'order.process',
        'order.refund',
        'order.refundPartial',
        'plan.create',
        'subscription.adhoc',
        'subscription.cancel',
        'webhook.update',
      ].sort(),
    );
    for (const [name, spec] of unsafe) {
      expect(typeof spec.afterUnknownOutcome, name).toBe('string');
      expect(spec.afterUnknownOutcome!.trim().length, name).toBeGreaterThan(10);
    }
  });

  it('paths and auth match the document', () => {
    const table = Object.fromEntries(specs.map(([n, s]) => [n, `${s.host} ${s.auth} ${s.path}`]));
    expect(table).toStrictEqual({
      'order.fetch': 'base basic /api/v2/order/fetch',
      'order.capture': 'base basic /api/v2/order/capture',
      'order.refund': 'base basic /api/v2/order/refund',
      'order.refundPartial': 'base basic /api/v2/order/refund/partial',
      'order.refundAttempts': 'base basic /api/v2/order/refund/attempts',
      'order.process': 'base body /api/v1/order/process',
      'info.paymentMethods': 'base basic /api/v2/info/payment/methods',
      'info.vpa': 'base body /api/v1/info/vpa',
      'info.currency': 'base body /api/v1/currency/get',
      'plan.create': 'base body /api/v1/subscription/plan/create',
      'plan.fetch': 'base body /api/v1/subscription/plan/fetch',
      'subscription.fetch': 'base body /api/v1/subscription/subscription/fetch',
      'subscription.fetchByReceipt': 'base body /api/v1/subscription/subscription/fetch/receipt',
      'subscription.cancel': 'base body /api/v1/subscription/cancel',
      'subscription.adhoc': 'base basic /api/v2/subscription/adhoc',
      'beneficiary.create': 'base basic /api/v2/payout/beneficiary/create',
      'beneficiary.fetch': 'base basic /api/v2/payout/beneficiary/fetch',
      'payout.fetch': 'base basic /api/v2/payout/fetch',
      'payout.accounts': 'base basic /api/v2/payout/accounts',
      'payout.balance': 'base basic /api/v2/payout/balance',
      'settlement.fetch': 'base basic /api/v2/settlement/fetch',
      'webhook.list': 'base basic /api/v2/webhook/list',
      'webhook.update': 'base basic /api/v2/webhook/{id}',
      classify: 'ai basic /v1/classify/',
    });
  });

  it('body-auth operations sign with key+hash; Basic ones that list key/hash carry them; settlements carry key', () => {
    for (const [name, spec] of specs) if (spec.auth === 'body') expect(spec.credentials, name).toBe('key+hash');
    for (const name of [
      'order.fetch',
      'order.capture',
      'order.refund',
      'order.refundPartial',
      'order.refundAttempts',
      'subscription.adhoc',
    ] as const) {
      expect(OPERATIONS[name].credentials, name).toBe('key+hash');
    }
    expect(OPERATIONS['settlement.fetch'].credentials).toBe('key');
    expect(OPERATIONS.classify.credentials).toBe('none');
  });

  it('only the methods listing sends a user-agent; only webhook.update has a path parameter', () => {
    expect(specs.filter(([, s]) => s.sendsUserAgent).map(([n]) => n)).toStrictEqual(['info.paymentMethods']);
    expect(specs.filter(([, s]) => s.pathParams?.length).map(([n]) => n)).toStrictEqual(['webhook.update']);
  });
});

describe('resolvePath', () => {
  it('puts the webhook id into the path and removes it from the body', () => {
    const input = { id: 'wh_01HX', url: 'https://merchant.example.com/h', active: false };
    expect(resolvePath(OPERATIONS['webhook.update'], input)).toStrictEqual({
      path: '/api/v2/webhook/wh_01HX',
      body: { url: 'https://merchant.example.com/h', active: false },
    });
    expect(input).toHaveProperty('id', 'wh_01HX');
  });

  it('URL-encodes the id', () => {
    expect(resolvePath(OPERATIONS['webhook.update'], { id: 'wh 1/../x?y#z', active: true }).path).toBe(
      '/api/v2/webhook/wh%201%2F..%2Fx%3Fy%23z',
    );
  });

  it('leaves other operations alone (a copy of the body, same path)', () => {
    const input = { id: 'ord_1' };
    const out = resolvePath(OPERATIONS['order.fetch'], input);
    expect(out).toStrictEqual({ path: '/api/v2/order/fetch', body: { id: 'ord_1' } });
    expect(out.body).not.toBe(input);
  });
});

describe('describeIssues', () => {
  it('joins the path with dots and labels the body itself', () => {
    const schema = z.object({ order: z.object({ amount: z.number() }) }).refine(() => false, 'whole body is wrong');
    const r = schema.safeParse({ order: { amount: 'x' } });
    expect(r.success).toBe(false);
    if (!r.success)
      expect(describeIssues(r.error)).toBe('order.amount: Invalid input: expected number, received string');
    const whole = schema.safeParse({ order: { amount: 1 } });
    if (!whole.success) expect(describeIssues(whole.error)).toBe('(body): whole body is wrong');
    expect(whole.success).toBe(false);
  });

  it('lists at most five issues and counts the rest', () => {
    const schema = z.object(Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, z.string()])));
    const r = schema.safeParse({});
    expect(r.success).toBe(false);
    if (!r.success) {
      const text = describeIssues(r.error);
      expect(
        text
          .split('; ')
          .slice(0, 5)
          .map((p) => p.split(':')[0]),
      ).toStrictEqual(['a', 'b', 'c', 'd', 'e']);
      expect(text).toMatch(/; and 2 more$/);
    }
  });
});
