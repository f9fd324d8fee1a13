/**
 * `orders` and `subscriptions` on the command line, on a profile of the test's own against one sandbox (so what one
 * command does, the next sees) and checked against the sandbox's state: every command, its `--json` in integer
 * paise, `--yes` for what moves money, and the exit codes — 0 done, 1 refused by the service, 2 bad input (nothing
 * sent), 3 outcome unknown (saying what to check).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { addLocalProfile, cliRunner } from '../support/cli';
import { openSandbox, type OpenSandbox } from '../support/sandbox';
import { refundAttempts } from '../support/sandbox-http';

let dir: string;
let sb: OpenSandbox;
let cli: ReturnType<typeof cliRunner>;
let orders: { id: string; status: string }[];
const run = (...argv: string[]) => cli.run('--profile', 'Local', '--secret-env', 'PC_TEST_SECRET', ...argv);
const attempts = (orderId: string) => refundAttempts(sb.sandbox.url, orderId, { key: sb.key, secret: sb.secret });
const orderWith = (status: string, n = 0) => orders.filter((o) => o.status === status)[n]!.id;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pc-merchant-cli-'));
  sb = await openSandbox({ settlementsPerDay: 0 });
  orders = sb.sandbox.fixtures().orders;
  cli = cliRunner(dir, { PC_TEST_SECRET: sb.secret });
  const add = await addLocalProfile(cli.run, sb);
  expect(add.code, add.stderr).toBe(0);
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('orders', () => {
  it('get prints every field, and --json gives integer paise; refunds lists the attempts and the balance', async () => {
    const id = orderWith('partially_refunded');
    const human = await run('orders', 'get', id);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^Order ${id}: PARTIALLY_REFUNDED`));
    expect(human.stdout).toMatch(/billing_address +firstname=/);
    expect(human.stdout).toMatch(/Refundable balance ₹/);
    const json = JSON.parse((await run('--json', 'orders', 'get', id)).stdout);
    expect(Number.isSafeInteger(json.order.amount)).toBe(true);
    expect(Number.isSafeInteger(json.order.additional_charges)).toBe(true);
    const listed = JSON.parse((await run('--json', 'orders', 'refunds', id)).stdout);
    expect(listed.refunds.map((r: { refund_id: string }) => r.refund_id)).toEqual(
      (await attempts(id)).map((a) => a.refund_id),
    );
    expect(listed.balance.refundable).toBe(json.balance.refundable);
    const missing = await run('orders', 'get', 'ord_NOPE');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/i);
  });

  it('refund needs --yes, parses rupees exactly, refuses above the balance (exit 2), and refunds once', async () => {
    const id = orderWith('success');
    const before = await attempts(id);
    const noYes = await run('orders', 'refund', id, '--amount', '12.34');
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(
      /This would refund ₹12\.34 \(Rupees twelve and paise thirty-four\) of order .* Add --yes/,
    );
    expect((await run('orders', 'refund', id, '--amount', '12.345', '--yes')).code).toBe(2);
    expect((await run('orders', 'refund', id, '--amount', '-1', '--yes')).code).toBe(2);
    const tooMuch = await run('orders', 'refund', id, '--amount', '99999999', '--yes');
    expect(tooMuch.code).toBe(2);
    expect(tooMuch.stderr).toMatch(/more than the refundable balance .* Nothing was sent/);
    expect(await attempts(id)).toEqual(before);

    const done = await run('--json', 'orders', 'refund', id, '--amount', '12.34', '--yes');
    expect(done.code, done.stderr).toBe(0);
    const out = JSON.parse(done.stdout);
    expect(out.outcome).toMatchObject({ event: 'order.refund', outcome: 'succeeded' });
    expect(out.outcome.data.amount).toBe(1234);
    const after = await attempts(id);
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)!.amount).toBe(1234);

    const full = await run('orders', 'refund', id, '--yes');
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/Refundable balance ₹0\.00/);
    const nothing = await run('orders', 'refund', id, '--yes');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/Nothing is left to refund/);
  });

  it('capture needs --yes; a capture the service refuses exits 1 with its reason', async () => {
    const id = orderWith('authorized');
    expect((await run('orders', 'capture', id)).code).toBe(2);
    const done = await run('orders', 'capture', id, '--yes');
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`Captured order ${id}\\.`));
    const again = await run('orders', 'capture', id, '--yes');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already captured/);
  });

  it('a lost answer exits 3 saying what to check; another refund exits 3 until check-status settles it', async () => {
    const id = orderWith('success', 1);
    const before = await attempts(id);
    await sb.fault({ path: OPERATIONS['order.refundPartial'].path, kind: 'malformed' });
    const lost = await run('orders', 'refund', id, '--amount', '5', '--yes');
    expect(lost.code).toBe(3);
    expect(lost.stderr).toMatch(/List the order's refund attempts before refunding again/);
    const blocked = await run('orders', 'refund', id, '--amount', '5', '--yes');
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toMatch(/has an unknown outcome\. Check its status/);
    expect((await attempts(id)).length).toBe(before.length + 1);

    const seq = /Entry (\d+)/.exec(blocked.stderr)![1]!;
    const checked = await run('orders', 'check-status', seq);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/is this refund/);
    expect((await run('orders', 'check-status', 'x')).code).toBe(2);
  });
});

describe('subscriptions', () => {
  it('get by id or --receipt (one of them), cancel with --yes, 1035 in plain words with exit 1', async () => {
    const subs = sb.sandbox.fixtures().subscriptions;
    const active = subs.find((s) => s.status === 'active')!;
    expect((await run('subscriptions', 'get')).code).toBe(2);
    const byReceipt = JSON.parse((await run('--json', 'subscriptions', 'get', '--receipt', active.receipt)).stdout);
    expect(byReceipt.subscription.subscription_id).toBe(active.id);
    expect(Number.isSafeInteger(byReceipt.subscription.amount)).toBe(true);
    expect((await run('subscriptions', 'get', active.id)).stdout).toMatch(/: ACTIVE/);

    expect((await run('subscriptions', 'cancel', active.id)).code).toBe(2);
    expect((await run('subscriptions', 'cancel', active.id, '--yes')).code).toBe(0);
    expect(sb.sandbox.fixtures().subscriptions.find((s) => s.id === active.id)!.status).toBe('canceled');
    const again = await run('subscriptions', 'cancel', active.id, '--yes');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already cancelled \(the service answered 1035\)/);
  });

  it('charge parses rupees exactly, needs --yes and a currency, charges once; a reset exits 3', async () => {
    const active = sb.sandbox.fixtures().subscriptions.filter((s) => s.status === 'active')[1]!;
    const charges = () => sb.sandbox.fixtures().subscriptions.find((s) => s.id === active.id)!.charges;
    expect((await run('subscriptions', 'charge', active.id, '--amount', '49.90', '--currency', 'INR')).code).toBe(2);
    expect(
      (await run('subscriptions', 'charge', active.id, '--amount', '49.999', '--currency', 'INR', '--yes')).code,
    ).toBe(2);
    expect(
      (await run('subscriptions', 'charge', active.id, '--amount', '49.90', '--currency', 'RUPEES', '--yes')).code,
    ).toBe(2);
    expect((await run('subscriptions', 'charge', active.id, '--amount', '49.90', '--yes')).code).toBe(2);
    const done = await run(
      '--json',
      'subscriptions',
      'charge',
      active.id,
      '--amount',
      '49.90',
      '--currency',
      'inr',
      '--yes',
    );
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).outcome.data).toMatchObject({ amount: 4990, currency: 'INR' });
    expect(charges().map((c) => c.amount)).toEqual([4990]);

    await sb.fault({ path: OPERATIONS['subscription.adhoc'].path, kind: 'drop' });
    const lost = await run('subscriptions', 'charge', active.id, '--amount', '1', '--currency', 'INR', '--yes');
    expect(lost.code).toBe(3);
    expect(lost.stderr).toMatch(/before charging again/);
    expect(charges()).toHaveLength(1);
    const seq = /Entry (\d+)/.exec(
      (await run('subscriptions', 'charge', active.id, '--amount', '1', '--currency', 'INR', '--yes')).stderr,
    )![1]!;
    const checked = await run('subscriptions', 'check-status', seq);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toMatch(/lists no charges/);
    expect(charges()).toHaveLength(1);
    expect((await run('subscriptions', 'check-status', seq, '--charged', 'maybe')).code).toBe(2);
    const recorded = await run('subscriptions', 'check-status', seq, '--charged', 'no');
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toMatch(/Recorded by the desk: the gateway shows no such charge/);
    expect((await run('subscriptions', 'charge', active.id, '--amount', '1', '--currency', 'INR', '--yes')).code).toBe(
      0,
    );
    expect(charges().map((c) => c.amount)).toEqual([4990, 100]);
  });
});
