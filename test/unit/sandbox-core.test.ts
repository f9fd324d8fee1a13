/** Small pieces of the sandbox: randomness, routing, credentials, the fault queue, exact rates, seeding. */
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { signBody } from '../../electron/api/signer';
import { basicMatches, checkBodyCredentials } from '../../electron/sandbox/auth';
import { FaultQueue, faultSpec } from '../../electron/sandbox/faults';
import { divideDecimal } from '../../electron/sandbox/handlers/payment-info';
import { Rng, hash32, permute40 } from '../../electron/sandbox/random';
import { matchRoute } from '../../electron/sandbox/routes';
import { seedState } from '../../electron/sandbox/seed';

describe('random', () => {
  it('is deterministic by seed and uniform enough', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / 1000 - 0.5)).toBeLessThan(0.05);
    expect(new Rng(43).next()).not.toBe(xs[0]);
    expect(new Rng(1).digits(30)).toMatch(/^\d{30}$/);
  });

  it('hash32 separates its inputs', () => {
    expect(hash32(1, 2)).not.toBe(hash32(2, 1));
    expect(hash32(1, 2 ** 40)).not.toBe(hash32(1, 0));
  });

  it('permute40 is a permutation: no collisions', () => {
    const seen = new Set<number>();
    for (let day = 20_000; day < 20_003; day++)
      for (let i = 0; i < 30_000; i++) seen.add(permute40(day * 2 ** 20 + i, 99));
    expect(seen.size).toBe(90_000);
    for (const v of seen) expect(v < 2 ** 40 && v >= 0).toBe(true);
  });
});

describe('routes', () => {
  it('matches every registry path, webhook ids from the path, list before the template', () => {
    for (const [name, spec] of Object.entries(OPERATIONS)) {
      if (name === 'webhook.update') continue;
      expect(matchRoute((spec.host === 'ai' ? '/ai' : '') + spec.path)?.name).toBe(name);
    }
    expect(matchRoute('/api/v2/webhook/list')).toMatchObject({ name: 'webhook.list', pathParams: {} });
    expect(matchRoute('/api/v2/webhook/wh_1')).toEqual({
      name: 'webhook.update',
      host: 'base',
      pathParams: { id: 'wh_1' },
    });
    expect(matchRoute('/ai/v1/classify')?.name).toBe('classify');
    expect(matchRoute('/api/v2/webhook/a/b')).toBeNull();
    expect(matchRoute('/v1/classify/')).toBeNull();
  });
});

describe('credentials', () => {
  const creds = { key: 'k', secret: 's' };
  it('Basic: exact key:secret only', () => {
    expect(basicMatches(`Basic ${Buffer.from('k:s').toString('base64')}`, creds)).toBe(true);
    expect(basicMatches(`basic ${Buffer.from('k:s').toString('base64')}`, creds)).toBe(true);
    expect(basicMatches(`Basic ${Buffer.from('k:s2').toString('base64')}`, creds)).toBe(false);
    expect(basicMatches(undefined, creds)).toBe(false);
  });

  it('body credentials per operation kind', () => {
    const body = { key: 'k', vpa: 'a@ybl' };
    expect(checkBodyCredentials(OPERATIONS['info.vpa'], { ...body, hash: signBody(body, 's') }, creds)).toBeNull();
    expect(
      checkBodyCredentials(OPERATIONS['info.vpa'], { ...body, hash: signBody(body, 's', 'hmac-sha256') }, creds),
    ).not.toBeNull();
    expect(checkBodyCredentials(OPERATIONS['order.fetch'], { key: 'k', id: 'o', hash: 'null' }, creds)).toBeNull();
    expect(checkBodyCredentials(OPERATIONS['order.fetch'], { id: 'o', hash: 'null' }, creds)).toBeNull();
    expect(checkBodyCredentials(OPERATIONS['order.fetch'], { key: 'k', id: 'o' }, creds)).not.toBeNull();
    expect(checkBodyCredentials(OPERATIONS['payout.accounts'], {}, creds)).toBeNull();
    expect(checkBodyCredentials(OPERATIONS['settlement.fetch'], { key: 'x' }, creds)?.http).toBe(401);
  });
});

describe('fault queue', () => {
  it('applies the first matching fault for its count', () => {
    const q = new FaultQueue();
    q.add(faultSpec.parse({ path: '/a', kind: '500', count: 2 }));
    q.add(faultSpec.parse({ kind: 'drop' }));
    expect(q.take('/b')?.kind).toBe('drop');
    expect(q.take('/b')).toBeUndefined();
    expect(q.take('/a')?.kind).toBe('500');
    expect(q.take('/a')?.kind).toBe('500');
    expect(q.take('/a')).toBeUndefined();
  });
});

describe('exact rates', () => {
  it('divides decimal text exactly, rounding half up', () => {
    expect(divideDecimal('83.25', '1', 6)).toBe('83.25');
    expect(divideDecimal('1', '83.25', 6)).toBe('0.012012');
    expect(divideDecimal('90.10', '83.25', 6)).toBe('1.082282');
    expect(divideDecimal('1', '8', 2)).toBe('0.13');
    expect(divideDecimal('1', '1', 6)).toBe('1');
  });
});

describe('seeded state', () => {
  it('is identical for equal seeds and days, and well-formed', () => {
    const a = seedState(8, '2025-02-01');
    const b = seedState(8, '2025-02-01');
    expect(a).toEqual(b);
    expect(seedState(9, '2025-02-01').fixtures([])).not.toEqual(a.fixtures([]));
    for (const bene of a.beneficiaries.values()) {
      if (bene.ifsc) expect(bene.ifsc).toMatch(/^[A-Z]{4}0[A-Z0-9]{6}$/);
      if (bene.vpa) expect(bene.vpa).toMatch(/^[a-z0-9._-]+@[a-z]+$/);
      expect(bene.account_number || bene.vpa).toBeTruthy();
    }
    const statuses = (m: Map<string, { status: string }>) => new Set([...m.values()].map((x) => x.status));
    expect(statuses(a.orders)).toEqual(
      new Set(['authorized', 'success', 'partially_refunded', 'refunded', 'created', 'failed']),
    );
    expect(statuses(a.subscriptions)).toEqual(new Set(['active', 'canceled']));
    expect(statuses(a.payouts)).toEqual(new Set(['success', 'failed', 'pending']));
    expect(a.gatewayAccounts.filter((g) => g.fails)).toHaveLength(1);
    for (const w of a.webhooks.values()) for (const t of w.topics) expect(['order.paid', 'order.failed']).toContain(t);
    for (const o of a.orders.values()) expect(Number.isSafeInteger(o.amount) && o.amount > 0).toBe(true);
  });
});
