/**
 * The API client's behaviour over real loopback HTTP against the sandbox: credentials, retries on what is
 * safe and only on that, Retry-After, timeouts, error mapping, and that no secret leaks into errors.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../electron/api';
import type { RequestEvent } from '../../electron/api/client';
import { parseDecimalToMinor } from '../../shared/money';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { basicHeader } from '../support/sandbox-http';

let sb: OpenSandbox;
beforeAll(async () => {
  sb = await openSandbox();
});
afterAll(() => sb.close());
afterEach(() => sb.clearFaults());

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

function recorder() {
  const events: RequestEvent[] = [];
  const delays: number[] = [];
  return {
    events,
    delays,
    onEvent: (e: RequestEvent) => events.push(e),
    sleep: async (ms: number) => void delays.push(ms),
  };
}

describe('credentials', () => {
  it('signs Basic and body operations so the sandbox accepts them', async () => {
    const api = sb.api();
    const { orders } = sb.sandbox.fixtures();
    await expect(api.orders.fetch(orders[0]!.id)).resolves.toMatchObject({ order: { order_id: orders[0]!.id } });
    await expect(api.paymentInfo.currency('USD', 'INR')).resolves.toMatchObject({
      conversion_rate: expect.any(String),
    });
  });

  it('maps a wrong secret on a Basic operation to an auth error', async () => {
    const api = sb.api({ secret: () => 'wrong-secret' });
    const e = await caught(api.payouts.accounts());
    expect(e.kind).toBe('auth');
    expect(e.httpStatus).toBe(401);
    expect(e.retryable).toBe(false);
  });

  it('maps a wrong secret on a body operation to "hash not verified" (code 204)', async () => {
    const api = sb.api({ secret: () => 'wrong-secret' });
    const e = await caught(api.paymentInfo.validateVpa('asha@okhdfcbank'));
    expect(e.kind).toBe('auth');
    expect(e.code).toBe(204);
    expect(e.userMessage).toMatch(/hash/);
  });

  it('maps a profile on another hash scheme to a hash error too', async () => {
    const api = sb.api({ profile: { ...sb.profile, hashScheme: 'hmac-sha256' } });
    expect((await caught(api.paymentInfo.validateVpa('asha@okhdfcbank'))).code).toBe(204);
  });

  it('asks for the secret at every request and keeps it nowhere in the client', async () => {
    let asked = 0;
    const api = sb.api({ secret: () => (asked++, sb.secret) });
    await api.payouts.accounts();
    await api.payouts.accounts();
    expect(asked).toBe(2);
    expect(JSON.stringify(Object.keys(api))).not.toContain(sb.secret);
  });
});

describe('errors never carry secrets', () => {
  it('in message, user message, JSON or stack', async () => {
    const basic = Buffer.from(`${sb.key}:wrong-secret-value`).toString('base64');
    const api = sb.api({ secret: () => 'wrong-secret-value' });
    for (const p of [
      api.payouts.accounts(),
      api.paymentInfo.validateVpa('asha@okhdfcbank'),
      api.orders.fetch('no-such-order'),
    ]) {
      const e = await caught(p);
      const text = [e.message, e.userMessage, JSON.stringify(e), e.stack ?? ''].join('\n');
      expect(text).not.toContain('wrong-secret-value');
      expect(text).not.toContain(basic);
    }
  });
});

describe('retries on safe operations', () => {
  it.each(['500', '503', 'drop', 'malformed'] as const)('recovers from %s', async (kind) => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep });
    await sb.fault({ path: '/api/v2/payout/accounts', kind, count: 2 });
    await expect(api.payouts.accounts()).resolves.toHaveProperty('accounts');
    expect(r.events.map((e) => e.outcome)).toEqual(['retry', 'retry', 'ok']);
    expect(r.delays).toHaveLength(2);
  });

  it('waits with exponential full-jitter backoff', async () => {
    const r = recorder();
    const api = sb.api({
      onEvent: r.onEvent,
      sleep: r.sleep,
      random: () => 0.999,
      retry: { baseDelayMs: 100, maxDelayMs: 10_000 },
    });
    await sb.fault({ path: '/api/v2/payout/accounts', kind: '500', count: 3 });
    await api.payouts.accounts();
    expect(r.delays).toEqual([99, 199, 399]);
  });

  it('honours Retry-After on 429', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep });
    await sb.fault({ path: '/api/v2/payout/balance', kind: '429', count: 1, retryAfter: 2 });
    await api.payouts.balance();
    expect(r.delays).toEqual([2000]);
  });

  it('gives up after the last attempt with the last error', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep, retry: { maxAttempts: 3 } });
    await sb.fault({ path: '/api/v2/payout/accounts', kind: '503', count: 5 });
    const e = await caught(api.payouts.accounts());
    expect(e.kind).toBe('unavailable');
    expect(e.httpStatus).toBe(503);
    expect(r.events).toHaveLength(3);
  });

  it('does not wait out a Retry-After longer than the policy allows', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep });
    await sb.fault({ path: '/api/v2/payout/accounts', kind: '429', count: 1, retryAfter: 3600 });
    const e = await caught(api.payouts.accounts());
    expect(e.kind).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(r.delays).toEqual([]);
  });

  it('times out a slow answer and retries it', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep, timeouts: { totalMs: 200 } });
    await sb.fault({ path: '/api/v2/webhook/list', kind: 'delay', delayMs: 1500, count: 1 });
    await expect(api.webhooks.list()).resolves.toHaveProperty('data');
    expect(r.events.map((e) => [e.outcome, e.errorKind])).toEqual([
      ['retry', 'timeout'],
      ['ok', undefined],
    ]);
  });
});

describe('no blind retry of operations that move money or change state', () => {
  it.each(['500', 'drop', 'malformed', 'delay'] as const)(
    '%s on a refund -> outcome unknown, one attempt',
    async (kind) => {
      const r = recorder();
      const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep, timeouts: { totalMs: 300 } });
      const order = sb.sandbox.fixtures().orders.find((o) => o.status === 'success')!;
      await sb.fault({ path: '/api/v2/order/refund/partial', kind, count: 1, delayMs: 1500 });
      const e = await caught(api.orders.refundPartial(order.id, 100));
      expect(e.kind).toBe('outcome_unknown');
      expect(e.userMessage).toMatch(/outcome is unknown — check its status/);
      expect(e.check).toMatch(/refund attempts/);
      expect(r.events).toHaveLength(1);
    },
  );

  it('a success answer of another shape on a refund -> outcome unknown, one attempt', async () => {
    const server = createServer((_, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ status: true, refund: 'queued?' })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const r = recorder();
      const { port } = server.address() as AddressInfo;
      const api = sb.api({
        onEvent: r.onEvent,
        sleep: r.sleep,
        profile: { ...sb.profile, baseUrl: `http://127.0.0.1:${port}` },
      });
      const e = await caught(api.orders.refundPartial('order_1', 100));
      expect(e.kind).toBe('outcome_unknown');
      expect(e.message).toMatch(/documented shape/);
      expect(r.events).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('503 and 429 on a create are "not processed" errors, not unknown, and are not retried', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent, sleep: r.sleep });
    const ben = { name: 'Asha Rao', vpa: 'asha@okhdfcbank' };
    await sb.fault({ path: '/api/v2/payout/beneficiary/create', kind: '503', count: 1 });
    expect((await caught(api.payouts.createBeneficiary(ben))).kind).toBe('unavailable');
    await sb.fault({ path: '/api/v2/payout/beneficiary/create', kind: '429', count: 1, retryAfter: 1 });
    expect((await caught(api.payouts.createBeneficiary(ben))).kind).toBe('rate_limited');
    expect(r.events.map((e) => e.outcome)).toEqual(['error', 'error']);
  });
});

describe('reaching the service', () => {
  it('reports a refused connection as a network error, not sent', async () => {
    const api = sb.api({ profile: { ...sb.profile, baseUrl: 'http://127.0.0.1:9' }, retry: { maxAttempts: 1 } });
    const e = await caught(api.payouts.accounts());
    expect(e.kind).toBe('network');
    expect(e.userMessage).toMatch(/Nothing is answering/);
    const e2 = await caught(api.payouts.createBeneficiary({ name: 'Asha', vpa: 'asha@okhdfcbank' }));
    expect(e2.kind).toBe('network');
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    const api = sb.api();
    await sb.fault({ path: '/api/v2/payout/accounts', kind: 'delay', delayMs: 1500, count: 1 });
    const p = api.payouts.accounts(undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect((await caught(p)).kind).toBe('cancelled');
  });

  it('refuses invalid input before sending anything', async () => {
    const r = recorder();
    const api = sb.api({ onEvent: r.onEvent });
    const e = await caught(api.payouts.createBeneficiary({ name: 'A', account_number: '123456789', ifsc: 'hdfc0001' }));
    expect(e.kind).toBe('invalid_input');
    expect(e.message).toMatch(/ifsc/);
    expect(r.events).toHaveLength(0);
  });
});

describe('settlement pages', () => {
  /** A loopback server answering every request with `body`: records the sandbox never sends. */
  async function answering(body: unknown): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((_, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify(body)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('reads a page exactly and names the operation and field of a malformed record', async () => {
    const date = sb.sandbox.fixtures().settlementDates.at(-1)!;
    const good = await sb.api().settlements.page({ date, limit: 5 });
    const wire = await fetch(`${sb.profile.baseUrl}/api/v2/settlement/fetch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicHeader(sb.key, sb.secret) },
      body: JSON.stringify({ key: sb.key, date, offset: '0', limit: '5' }),
    }).then((r) => r.json() as Promise<{ data: Record<string, unknown>[] }>);
    expect(good.data.map((r) => r.cgst)).toEqual(wire.data.map((r) => parseDecimalToMinor(String(r['cgst']))));

    for (const [field, value] of [
      ['cgst', '1.005'],
      ['amount', 10.5],
      ['settlement_date', '2025-13-01 10:00:00'],
    ] as const) {
      const broken = structuredClone(wire);
      broken.data[3]![field] = value;
      const server = await answering(broken);
      try {
        const api = sb.api({ profile: { ...sb.profile, baseUrl: server.url } });
        const e = await caught(api.settlements.page({ date, limit: 5 }));
        expect(e.kind).toBe('invalid_response');
        expect(e.operation).toBe('settlement.fetch');
        expect(e.message).toContain(`data.3.${field}`);
      } finally {
        await server.close();
      }
    }
  });

  it('walks a page it cannot prove flat for its depth, and scrubs a page that echoes the secret', async () => {
    const date = sb.sandbox.fixtures().settlementDates.at(-1)!;
    const wire = await fetch(`${sb.profile.baseUrl}/api/v2/settlement/fetch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicHeader(sb.key, sb.secret) },
      body: JSON.stringify({ key: sb.key, date, offset: '0', limit: '5' }),
    }).then((r) => r.json() as Promise<{ data: Record<string, unknown>[] }>);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100; i++) deep = [deep];
    const nested = structuredClone(wire);
    nested.data[2]!['gateway_ref'] = deep;
    const echoed = structuredClone(wire);
    echoed.data[1]!['description'] = `refund note ${sb.secret}`;
    echoed.data[3]!['gateway_ref'] = Buffer.from(`${sb.key}:${sb.secret}`).toString('base64');

    for (const [label, body] of [
      ['nested', nested],
      ['echoed', echoed],
    ] as const) {
      const server = await answering(body);
      try {
        const api = sb.api({ profile: { ...sb.profile, baseUrl: server.url } });
        if (label === 'nested') {
          const e = await caught(api.settlements.page({ date, limit: 5 }));
          expect(e.kind).toBe('invalid_response');
          expect(e.message).toContain('nests deeper than 64 levels');
        } else {
          const page = await api.settlements.page({ date, limit: 5 });
          expect(JSON.stringify(page)).not.toContain(sb.secret);
          expect(page.data[1]!.description).toBe('refund note [redacted]');
          expect(page.data[3]).toHaveProperty('gateway_ref', expect.stringContaining('[redacted]'));
          // Scrubbed and read by the schema, the money is still exact.
          expect(page.data.map((r) => r.cgst)).toEqual(wire.data.map((r) => parseDecimalToMinor(String(r['cgst']))));
        }
      } finally {
        await server.close();
      }
    }
  });
});
