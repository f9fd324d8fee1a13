/**
 * The payment tools, plans, webhooks and classification commands on the real core against a sandbox with fault
 * hooks: each command's output checked against the sandbox's state, and every exit code (0 done, 1 refused by the
 * service, 2 bad input with nothing sent, 3 outcome unknown with what to check).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../shared/api/operations';
import { cliRunner } from '../support/cli';
import { openSandbox, sandboxProfile, type OpenSandbox } from '../support/sandbox';

let dir: string;
let sb: OpenSandbox;
let cli: ReturnType<typeof cliRunner>;
const run = (...argv: string[]) => cli.run('--profile', 'Local', '--secret-env', 'PC_TEST_SECRET', ...argv);
const json = async (...argv: string[]) => {
  const r = await run('--json', ...argv);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown> & unknown[];
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pc-merchant-cli-'));
  sb = await openSandbox();
  cli = cliRunner(dir, { PC_TEST_SECRET: sb.secret, PC_WRONG_SECRET: 'sk_not_the_secret' });
  sandboxProfile(sb, dir, 'Local');
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('payments methods', () => {
  it('lists the groups in the listing order, the amount in integer paise under --json', async () => {
    const r = await run('payments', 'methods', '--amount', '1,250.50', '--currency', 'inr');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Net banking:[\s\S]*YESB\s+Yes Bank\s+down/);
    expect(r.stdout).toMatch(/Flags: .*EMI no/);
    const j = await json('payments', 'methods', '--amount', '1250.50');
    expect(j['amount']).toBe(125050);
  });

  it.each([['12.345'], ['-3'], ['0']])('exits 2 on --amount %s', async (amount) => {
    const r = await run('payments', 'methods', '--amount', amount);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/amount/);
  });
});

describe('orders process', () => {
  it('starts one payment and prints its link; bad fields exit 2 and send nothing', async () => {
    const order = sb.sandbox.fixtures().orders.find((o) => o.status === 'created' && o.payments === 0)!;
    const missing = await run('orders', 'process', order.id, '--method', 'upi', '--code', 'collect');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/vpa: is required for a upi collect/);
    const card = await run('orders', 'process', order.id, '--method', 'card', '--code', 'card');
    expect(card.code).toBe(2);
    expect(card.stderr).toMatch(/does not show the card object/);
    expect(sb.sandbox.fixtures().orders.find((o) => o.id === order.id)!.payments).toBe(0);

    const r = await run('orders', 'process', order.id, '--method', 'upi', '--code', 'qr');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/link\s+upi:\/\/pay\?/);
    expect(sb.sandbox.fixtures().orders.find((o) => o.id === order.id)!.payments).toBe(1);
  });

  it('exits 1 with the service reason for an order that cannot be processed', async () => {
    const paid = sb.sandbox.fixtures().orders.find((o) => o.status === 'success')!;
    const r = await run('orders', 'process', paid.id, '--method', 'nb', '--code', 'HDFC');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/payout-console: /);
  });

  it('exits 3 when the answer is lost, saying what to check', async () => {
    const order = sb.sandbox.fixtures().orders.find((o) => o.status === 'created' && o.payments === 0)!;
    await sb.fault({ path: OPERATIONS['order.process'].path, kind: 'drop', count: 1 });
    const r = await run('orders', 'process', order.id, '--method', 'wallet', '--code', 'paytm');
    await sb.clearFaults();
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(OPERATIONS['order.process'].afterUnknownOutcome!);
  });
});

describe('tools', () => {
  it('vpa: valid with the holder, unknown handle, malformed exits 2', async () => {
    expect((await run('tools', 'vpa', 'asha.rao@okhdfcbank')).stdout).toMatch(/valid UPI address of ASHA RAO/);
    expect((await run('tools', 'vpa', 'asha@nosuchbank')).stdout).toMatch(/not registered/);
    expect((await run('tools', 'vpa', 'not-an-address')).code).toBe(2);
  });

  it('currency: the rate as decimal text and an amount converted exactly', async () => {
    const j = await json('tools', 'currency', 'usd', 'inr', '--amount', '12.34');
    expect(j['rate']).toMatch(/^\d+(\.\d+)?$/);
    expect(j['amount']).toBe(1234);
    // 12.34 × rate, digit for digit.
    const [w, f = ''] = (j['rate'] as string).split('.');
    const product = (1234n * BigInt(w! + f)).toString().padStart(f.length + 3, '0');
    const exact = `${product.slice(0, -(f.length + 2))}.${product.slice(-(f.length + 2))}`.replace(/\.?0+$/, '');
    expect(j['converted']).toBe(exact);
    expect((await run('tools', 'currency', 'USD', 'XYZ')).code).toBe(1);
    expect((await run('tools', 'currency', 'US', 'INR')).code).toBe(2);
  });
});

describe('plans', () => {
  const create = (reference: string, amount = '999.99') =>
    run(
      'plans',
      'create',
      '--title',
      'Silver yearly',
      '--amount',
      amount,
      '--frequency',
      '365',
      '--cycle',
      '3',
      '--currency',
      'INR',
      '--reference',
      reference,
      '--description',
      'Silver, once a year',
      '--udf2',
      'desk',
    );

  it('creates (amount exact), gets it back with --json in integer paise; a duplicate reference exits 1', async () => {
    const r = await create('SILVER-Y-1');
    expect(r.code, r.stderr).toBe(0);
    const id = /Created plan (\S+):/.exec(r.stdout)![1]!;
    expect(sb.sandbox.fixtures().plans.find((p) => p.id === id)).toMatchObject({ amount: 99999 });
    const plan = await json('plans', 'get', id);
    expect(plan).toMatchObject({ amount: 99999, frequency: 365, cycle: 3, notes: { udf2: 'desk' } });
    expect((await create('SILVER-Y-1')).code).toBe(1);
    expect((await run('plans', 'get', 'plan_nope')).code).toBe(1);
  });

  it.each([['99.999'], ['-1'], ['0']])('exits 2 on --amount %s and sends nothing', async (amount) => {
    const before = sb.sandbox.fixtures().plans.length;
    const r = await create(`BAD-${amount}`, amount);
    expect(r.code).toBe(2);
    expect(sb.sandbox.fixtures().plans.length).toBe(before);
  });

  it('a lost answer exits 3; plans check settles it from the journal', async () => {
    await sb.fault({ path: OPERATIONS['plan.create'].path, kind: 'malformed', count: 1 });
    const r = await create('SILVER-LOST');
    await sb.clearFaults();
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(OPERATIONS['plan.create'].afterUnknownOutcome!);
    const list = await json('journal', 'list', '--kind', 'action', '--text', 'SILVER-LOST');
    const attempt = (list as unknown as { seq: number; outcome: string }[]).find((e) => e.outcome === 'attempted')!;
    const check = await run('plans', 'check', String(attempt.seq));
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/the create succeeded/);
  });
});

describe('webhooks', () => {
  it('lists with --active, updates and deactivates; bad input exits 2, an unknown id 1', async () => {
    const inactive = (await json('webhooks', 'list', '--active', 'false'))['endpoints'] as { status: string }[];
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((w) => w.status === 'inactive')).toBe(true);
    const id = sb.sandbox.fixtures().webhooks.find((w) => w.status === 'active')!.id;
    const r = await run(
      'webhooks',
      'update',
      id,
      '--url',
      'https://merchant.example.in/hooks/cli',
      '--topics',
      'order.paid,payout.failed',
      '--active',
      'false',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(sb.sandbox.fixtures().webhooks.find((w) => w.id === id)).toEqual({
      id,
      status: 'inactive',
      url: 'https://merchant.example.in/hooks/cli',
      topics: ['order.paid', 'payout.failed'],
    });
    expect((await run('webhooks', 'update', id, '--url', 'http://merchant.example.in/x')).code).toBe(2);
    expect((await run('webhooks', 'update', id)).code).toBe(2);
    expect((await run('webhooks', 'update', id, '--active', 'maybe')).code).toBe(2);
    expect((await run('webhooks', 'update', 'wh_nope', '--active', 'true')).code).toBe(1);
  });
});

describe('classify', () => {
  it('reads a state (text or JSON file) and questions file; limits exit 2; a 401 exits 1 in plain words', async () => {
    const questions = join(dir, 'questions.json');
    writeFileSync(
      questions,
      JSON.stringify({
        questions: {
          topic: { type: 'choice', instructions: 'About?', criteria: ['refund', 'payout'] },
          level: { type: 'score', instructions: 'How bad?', criteria: ['fine', 'bad'] },
        },
      }),
    );
    const text = await json('classify', '--state', 'where is my refund', '--questions', questions);
    expect((text['answers'] as Record<string, { choice?: string }>)['topic']!.choice).toBe('refund');
    const stateFile = join(dir, 'state.json');
    writeFileSync(stateFile, JSON.stringify([{ role: 'user', content: 'the payout bounced' }]));
    const human = await run('classify', '--state', stateFile, '--questions', questions);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/topic: payout \(confidence/);
    expect(human.stdout).toMatch(/tokens in/);

    const big = await run('classify', '--state', 'x'.repeat(40_000), '--questions', questions);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/32 KiB/);
    const five = join(dir, 'five.json');
    writeFileSync(
      five,
      JSON.stringify(Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`q${i}`, { type: 'noul', instructions: 'x' }]))),
    );
    expect((await run('classify', '--state', 'x', '--questions', five)).code).toBe(2);

    const wrong = await cli.run(
      '--profile',
      'Local',
      '--secret-env',
      'PC_WRONG_SECRET',
      'classify',
      '--state',
      'x',
      '--questions',
      questions,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/did not accept this profile's key and secret \(401\)/);
  });
});
