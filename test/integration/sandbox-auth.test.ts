/** Authentication, credentials in the body, validation, and the HTTP-level errors of the merchant API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures, Sandbox } from '../../electron/sandbox/server';
import { basicHeader, rawCall } from '../support/sandbox-http';
import { signBody } from '../../electron/api/signer';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
let f: Fixtures;
const first = (list: { id: string; status: string }[], status: string) => list.find((x) => x.status === status)!.id;
const envelope = (code: number, message?: string) => ({
  status: false,
  error: message === undefined ? expect.objectContaining({ code }) : { code, message },
});
const HASH_FAILED = { status: false, error: { message: 'Hash is not verified', code: 204 } };

beforeAll(async () => {
  sandbox = await startTestSandbox({ key: 'merchant_k', secret: 'merchant_s' });
  f = sandbox.fixtures();
});
afterAll(() => sandbox.close());

const creds = { key: 'merchant_k', secret: 'merchant_s' };

describe('Basic operations', () => {
  it('refuse a missing or wrong Authorization header with HTTP 401 and the envelope', async () => {
    const none = await rawCall(sandbox.url, 'payout.accounts', {}, { ...creds, authorization: null });
    expect(none.http).toBe(401);
    expect(none.body).toMatchObject(envelope(401));
    const wrong = await rawCall(
      sandbox.url,
      'payout.accounts',
      {},
      { ...creds, authorization: basicHeader('merchant_k', 'nope') },
    );
    expect(wrong.http).toBe(401);
    const garbage = await rawCall(sandbox.url, 'payout.accounts', {}, { ...creds, authorization: 'Bearer abc' });
    expect(garbage.http).toBe(401);
    const ok = await rawCall(sandbox.url, 'payout.accounts', {}, creds);
    expect(ok.http).toBe(200);
  });

  it('accept the literal "null" hash or a valid hash on key+hash operations, and nothing else', async () => {
    const id = first(f.orders, 'success');
    expect((await rawCall(sandbox.url, 'order.fetch', { id }, { ...creds, hash: 'null' })).body).toMatchObject({
      status: true,
    });
    expect((await rawCall(sandbox.url, 'order.fetch', { id }, creds)).body).toMatchObject({ status: true });
    const bad = await rawCall(sandbox.url, 'order.fetch', { id }, { ...creds, hash: 'deadbeef' });
    expect([bad.http, bad.body]).toEqual([200, HASH_FAILED]);
    const missing = await rawCall(sandbox.url, 'order.fetch', { id }, { ...creds, hash: null });
    expect(missing.body).toEqual(HASH_FAILED);
    const wrongSecret = signBody({ key: 'merchant_k', id }, 'other_secret');
    expect((await rawCall(sandbox.url, 'order.fetch', { id }, { ...creds, hash: wrongSecret })).body).toEqual(
      HASH_FAILED,
    );
  });

  it('refuse a body key that differs from the Basic credentials', async () => {
    const r = await rawCall(
      sandbox.url,
      'settlement.fetch',
      { date: f.settlementDates.at(-1) },
      { ...creds, key: 'someone_else', authorization: basicHeader('merchant_k', 'merchant_s') },
    );
    expect(r.http).toBe(401);
    const noKey = await rawCall(
      sandbox.url,
      'settlement.fetch',
      { date: f.settlementDates.at(-1), limit: '1' },
      { ...creds, omitKey: true },
    );
    expect(noKey.http).toBe(200);
  });
});

describe('body operations', () => {
  it('verify key and hash, answering 204 "Hash is not verified" (HTTP 200) otherwise', async () => {
    const ok = await rawCall(sandbox.url, 'info.vpa', { vpa: 'asha@ybl' }, creds);
    expect(ok.body).toMatchObject({ status: true, isVPAValid: true });
    for (const opts of [
      { hash: 'abc' },
      { hash: null },
      { omitKey: true },
      { key: 'other_key' },
      { secret: 'other_secret' },
    ]) {
      const r = await rawCall(sandbox.url, 'info.vpa', { vpa: 'asha@ybl' }, { ...creds, ...opts });
      expect([r.http, r.body]).toEqual([200, HASH_FAILED]);
    }
  });

  it('reject the literal "null" hash (only Basic operations accept it)', async () => {
    const r = await rawCall(
      sandbox.url,
      'subscription.fetch',
      { id: first(f.subscriptions, 'active') },
      { ...creds, hash: 'null' },
    );
    expect(r.body).toMatchObject(HASH_FAILED);
  });

  it('check the hash before the fields', async () => {
    const r = await rawCall(sandbox.url, 'info.currency', { from: 'usd' }, { ...creds, hash: 'x' });
    expect(r.body).toEqual(HASH_FAILED);
  });
});

describe('validation', () => {
  const cases: [Parameters<typeof rawCall>[1], () => Record<string, unknown>, string][] = [
    ['order.fetch', () => ({}), 'id:'],
    ['order.refundPartial', () => ({ id: first(f.orders, 'success'), amount: -5 }), 'amount:'],
    ['order.refundPartial', () => ({ id: first(f.orders, 'success'), amount: 1.5 }), 'amount:'],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'crypto', code: 'x' }), 'method:'],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'upi', code: 'collect' }), 'vpa:'],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'upi', code: 'intent' }), 'device:'],
    [
      'order.process',
      () => ({ order_id: first(f.orders, 'created'), method: 'upi', code: 'intent', device: 'blackberry' }),
      'device:',
    ],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'upi', code: 'push' }), 'code:'],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'nb', code: 'NOPE' }), 'code:'],
    ['order.process', () => ({ order_id: first(f.orders, 'created'), method: 'card', code: 'card' }), 'card:'],
    ['info.vpa', () => ({ vpa: 'not-a-vpa' }), 'vpa:'],
    ['info.currency', () => ({ from: 'usd', to: 'INR' }), 'from:'],
    ['info.currency', () => ({ from: 'XXX', to: 'INR' }), 'from:'],
    [
      'plan.create',
      () => ({
        title: 'T',
        description: '',
        amount: '100',
        frequency: 0,
        cycle: 1,
        currency: 'INR',
        mer_reference_id: 'r1',
      }),
      'frequency:',
    ],
    [
      'plan.create',
      () => ({
        title: 'T',
        description: '',
        amount: '10.50',
        frequency: 1,
        cycle: 1,
        currency: 'INR',
        mer_reference_id: 'r1',
      }),
      'amount:',
    ],
    ['subscription.adhoc', () => ({ id: first(f.subscriptions, 'active'), amount: '0', currency: 'INR' }), 'amount:'],
    [
      'subscription.adhoc',
      () => ({ id: first(f.subscriptions, 'active'), amount: '100', currency: 'USD' }),
      'currency:',
    ],
    ['beneficiary.create', () => ({ name: 'A', account_number: '123456789', ifsc: 'hdfc0001234' }), 'ifsc:'],
    ['beneficiary.create', () => ({ name: 'A', account_number: '12', ifsc: 'HDFC0001234' }), 'account_number:'],
    ['beneficiary.create', () => ({ name: 'A' }), 'account_number:'],
    ['beneficiary.create', () => ({ name: '', vpa: 'a@ybl' }), 'name:'],
    ['payout.fetch', () => ({ id: first(f.payouts, 'success'), fetch_type: 'hard' }), 'fetch_type:'],
    ['payout.accounts', () => ({ pg: 'nosuchpg' }), 'pg:'],
    ['settlement.fetch', () => ({ date: '2024-02-30' }), 'date:'],
    ['settlement.fetch', () => ({ date: '22-11-2024' }), 'date:'],
    ['settlement.fetch', () => ({ date: f.settlementDates.at(-1), limit: '5000' }), 'limit:'],
    ['settlement.fetch', () => ({ date: f.settlementDates.at(-1), limit: '0' }), 'limit:'],
    ['settlement.fetch', () => ({ date: f.settlementDates.at(-1), offset: '-1' }), 'offset:'],
    ['settlement.fetch', () => ({ date: f.settlementDates.at(-1), pg: 'nosuchpg' }), 'pg:'],
    ['webhook.list', () => ({ active: 'yes' }), 'active:'],
    ['webhook.update', () => ({ id: f.webhooks[0]!.id, topics: ['Order Paid'] }), 'topics.0:'],
    ['webhook.update', () => ({ id: f.webhooks[0]!.id, url: 'ftp://x.example' }), 'url:'],
    ['webhook.update', () => ({ id: f.webhooks[0]!.id }), '(body):'],
  ];

  it.each(cases.map(([op, input, field]) => ({ op, input, field })))(
    '$op -> HTTP 400 naming $field',
    async ({ op, input, field }) => {
      const r = await rawCall(sandbox.url, op, input(), creds);
      expect(r.http).toBe(400);
      expect(r.body).toMatchObject(envelope(400));
      expect((r.body as { error: { message: string } }).error.message.startsWith(field)).toBe(true);
    },
  );

  it('payment methods need a user-agent header', async () => {
    const r = await rawCall(sandbox.url, 'info.paymentMethods', {}, { ...creds, headers: { 'user-agent': '' } });
    expect(r.http).toBe(400);
    expect((r.body as { error: { message: string } }).error.message).toMatch(/^user-agent:/);
  });
});

describe('HTTP-level errors', () => {
  it('malformed JSON or a non-object body -> HTTP 400 envelope', async () => {
    const bad = await rawCall(sandbox.url, 'payout.accounts', {}, { ...creds, rawBody: '{"pg": ' });
    expect([bad.http, bad.body]).toMatchObject([400, envelope(400)]);
    const array = await rawCall(sandbox.url, 'payout.accounts', {}, { ...creds, rawBody: '[1,2]' });
    expect(array.http).toBe(400);
  });

  it('unknown path -> 404 envelope; a non-POST method -> 405 envelope', async () => {
    const res = await fetch(`${sandbox.url}/api/v2/nothing/here`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject(envelope(404));
    const get = await fetch(`${sandbox.url}/api/v2/payout/accounts`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject(envelope(405));
  });

  it('a body over 1 MiB -> 413 envelope', async () => {
    const r = await rawCall(
      sandbox.url,
      'payout.accounts',
      {},
      { ...creds, rawBody: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) },
    );
    expect(r.http).toBe(413);
    expect(r.body).toMatchObject(envelope(413));
  });

  it('routes /api/v2/webhook/list to the list, and any other /api/v2/webhook/{id} to an update', async () => {
    const list = await rawCall(sandbox.url, 'webhook.list', {}, creds);
    expect(list.body).toMatchObject({ status: true, data: expect.any(Array) });
    const missing = await rawCall(sandbox.url, 'webhook.update', { id: 'wh_missing', active: false }, creds);
    expect(missing.body).toMatchObject(envelope(404));
  });
});
