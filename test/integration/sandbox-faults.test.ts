/** The fault hook: each kind, counts, path matching, clearing, and that hooks themselves never fault. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../electron/sandbox/server';
import { hook, rawCall } from '../support/sandbox-http';
import { startTestSandbox } from '../support/sandbox';

let sb: Sandbox;
const ACCOUNTS = '/api/v2/payout/accounts';
const arm = (spec: Record<string, unknown>) => hook(sb.url, 'POST', 'faults', spec);
const accounts = () => rawCall(sb.url, 'payout.accounts', {});

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 4 });
});
afterEach(() => hook(sb.url, 'DELETE', 'faults'));
afterAll(() => sb.close());

describe('fault kinds', () => {
  it('429 with Retry-After, for exactly `count` requests on that path', async () => {
    expect((await arm({ path: ACCOUNTS, kind: '429', count: 2, retryAfter: 3 })).http).toBe(200);
    expect((await rawCall(sb.url, 'webhook.list', {})).http).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await accounts();
      expect(r.http).toBe(429);
      expect(r.headers.get('retry-after')).toBe('3');
      expect(r.body).toMatchObject({ status: false, error: { code: 429 } });
    }
    expect((await accounts()).http).toBe(200);
  });

  it('429 without retryAfter sends no Retry-After; kinds may be given as numbers', async () => {
    await arm({ path: ACCOUNTS, kind: 429 });
    const r = await accounts();
    expect([r.http, r.headers.get('retry-after')]).toEqual([429, null]);
  });

  it('500 and 503', async () => {
    await arm({ path: ACCOUNTS, kind: '500' });
    await arm({ path: ACCOUNTS, kind: '503' });
    expect((await accounts()).http).toBe(500);
    expect((await accounts()).http).toBe(503);
    expect((await accounts()).http).toBe(200);
  });

  it('delay waits delayMs and then answers normally', async () => {
    await arm({ path: ACCOUNTS, kind: 'delay', delayMs: 300 });
    const t0 = performance.now();
    const r = await accounts();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    expect(r.http).toBe(200);
    expect(r.body).toMatchObject({ status: true });
  });

  it('drop resets the connection without an answer', async () => {
    await arm({ path: ACCOUNTS, kind: 'drop' });
    const err = await accounts().then(
      () => null,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(err).toBeInstanceOf(TypeError);
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(err!.cause?.code);
    expect((await accounts()).http).toBe(200);
  });

  it('malformed answers HTTP 200 with a truncated JSON body', async () => {
    const whole = (await accounts()).text;
    await arm({ path: ACCOUNTS, kind: 'malformed' });
    const r = await accounts();
    expect(r.http).toBe(200);
    expect(r.body).toBeUndefined();
    expect(() => JSON.parse(r.text) as unknown).toThrow();
    expect(whole.startsWith(r.text)).toBe(true);
  });

  it('variant-b also reshapes errors into the Variant B envelope', async () => {
    await arm({ path: '/api/v2/order/fetch', kind: 'variant-b', count: 2 });
    const missing = await rawCall(sb.url, 'order.fetch', { id: 'ord_nope' });
    expect(missing.body).toEqual({ status: false, message: 'Order ord_nope not found', code: 202 });
    const invalid = await rawCall(sb.url, 'order.fetch', {});
    expect(invalid.http).toBe(400);
    expect(invalid.body).toEqual({
      status: false,
      message: 'Invalid request',
      code: 400,
      detail: expect.stringMatching(/^id:/),
    });
  });

  it('faults on the classification path answer in its error shape', async () => {
    await arm({ path: '/ai/v1/classify/', kind: '503' });
    const r = await rawCall(sb.url, 'classify', { state: 'x', questions: { q: { type: 'noul', instructions: 'y' } } });
    expect([r.http, r.body]).toEqual([503, { error: { message: expect.any(String), code: 503 } }]);
  });
});

describe('fault matching and clearing', () => {
  it('a fault without a path applies to the next request, whatever its path', async () => {
    await arm({ kind: '500' });
    expect((await rawCall(sb.url, 'webhook.list', {})).http).toBe(500);
    expect((await accounts()).http).toBe(200);
  });

  it('DELETE /__sandbox/faults disarms everything', async () => {
    await arm({ path: ACCOUNTS, kind: '503', count: 5 });
    expect((await hook<{ faults: { remaining: number }[] }>(sb.url, 'GET', 'faults')).body.faults).toEqual([
      { path: ACCOUNTS, kind: '503', remaining: 5 },
    ]);
    await hook(sb.url, 'DELETE', 'faults');
    expect((await accounts()).http).toBe(200);
  });

  it('hooks never fault', async () => {
    await arm({ kind: '500', count: 3 });
    const fixtures = await hook<{ gateways: string[] }>(sb.url, 'GET', 'fixtures');
    expect(fixtures.http).toBe(200);
    expect(fixtures.body.gateways.length).toBeGreaterThan(1);
    expect((await hook<{ faults: { remaining: number }[] }>(sb.url, 'GET', 'faults')).body.faults[0]!.remaining).toBe(
      3,
    );
  });

  it('refuses a malformed fault and unknown hooks', async () => {
    expect((await arm({ kind: 'boom' })).http).toBe(400);
    expect((await arm({ kind: 'delay' })).body).toMatchObject({
      error: { message: expect.stringMatching(/^delayMs:/) },
    });
    expect((await arm({ kind: '500', count: 0 })).http).toBe(400);
    expect((await arm({ kind: '500', path: 'no-slash' })).http).toBe(400);
    expect((await hook(sb.url, 'GET', 'nothing')).http).toBe(404);
  });
});

describe('the embedded (app) sandbox', () => {
  it('serves no test hooks when started with hooks: false', async () => {
    const embedded = await startTestSandbox({ hooks: false });
    try {
      const armed = await fetch(`${embedded.url}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ kind: '500' }),
      });
      expect(armed.status).toBe(404);
      const fixtures = await fetch(`${embedded.url}/__sandbox/fixtures`);
      expect(fixtures.status).toBe(404);
    } finally {
      await embedded.close();
    }
  });
});
