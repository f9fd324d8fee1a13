/**
 * A new proposal waiting for this person, as an OS notification (a recorder in Electron's place), on a real
 * PostgreSQL desk: the approver's console is told when its "waiting for me" grows, not when the desk is first
 * reached with proposals already waiting, and not when a proposal leaves the queue (withdrawn). The notifier is
 * wired as core.ts wires it, on the approver's core's events and counts, with its readings recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core';
import type { Sandbox } from '../../electron/sandbox/server';
import {
  APPROVALS_NOTIFICATION_TITLE,
  approvalsNoticeText,
  notifyNewProposals,
} from '../../electron/approvals/notifications';
import { createLogger, createRedactor } from '../../electron/log';
import type { Proposal } from '../../shared/approvals';
import { EMBEDDED_SECRET, coreOnSandbox, ok } from '../support/core';
import { createTestDesk, PASSWORD, type TestDesk } from '../support/desk';
import { memoryStore } from '../support/memory-store';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { startTestSandbox } from '../support/sandbox';

describe.runIf(postgresAvailable())('OS notifications of proposals waiting for me', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let sandbox: Sandbox;
  const dirs: string[] = [];
  const cores: Core[] = [];
  let maker: Core;
  let approver: Core;
  let orderId: string;
  let keys = 0;
  /** What the approver's OS was asked to show, in order, and who waits for the next one. */
  const shown: { title: string; body: string }[] = [];
  const waiters: (() => void)[] = [];
  const nextShown = () => new Promise<void>((resolve) => waiters.push(resolve));

  /** Each reading of the counts the notifier made, and who waits for the next one. */
  const readings: number[] = [];
  const readWaiters: (() => void)[] = [];
  const nextReading = () => new Promise<void>((resolve) => readWaiters.push(resolve));

  const joined = async (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `pc-approval-notify-${name}-`));
    dirs.push(dir);
    const core = coreOnSandbox(sandbox, { dataDir: dir, vault: memoryStore(), consoleName: `${name}-laptop` });
    cores.push(core);
    await core.desks.join(
      'sandbox',
      { host: cluster.host, port: cluster.port, database: desk.database, user: desk.who(name), tls: 'none' },
      PASSWORD,
    );
    return core;
  };
  /**
   * The notifier as core.ts wires it (main's OS notifications there), on the approver's core, with its readings
   * recorded so the test knows when it has read the counts it compares against.
   */
  const notifying = (core: Core) =>
    notifyNewProposals({
      events: core.events,
      os: {
        isSupported: () => true,
        show: (n) => {
          shown.push(n);
          waiters.splice(0).forEach((w) => w());
        },
      },
      counts: async (profileId) => {
        const counts = await core.approvals.counts(profileId);
        readings.push(counts!.waiting);
        readWaiters.splice(0).forEach((w) => w());
        return counts;
      },
      activeProfileId: () => 'sandbox',
      log: createLogger('test', () => {}, createRedactor()),
    });
  const propose = async (): Promise<Proposal> => {
    const r = await ok(maker, 'orders.refund', { requestKey: `notify-key-${++keys}`, orderId, amount: 100 });
    if (!('pendingApproval' in r)) throw new Error('The refund was sent without approval.');
    return r.pendingApproval;
  };

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', arun: 'approver' });
    sandbox = await startTestSandbox({ secret: EMBEDDED_SECRET, settlementsPerDay: 0 });
    orderId = sandbox.fixtures().orders.find((o) => o.status === 'success')!.id;
    maker = await joined('olga');
  });
  afterAll(async () => {
    await Promise.all(cores.map((c) => c.close()));
    await sandbox?.close();
    cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('says nothing of what already waited when the desk is reached, then tells each new one', async () => {
    await propose();
    // The approver's console starts and reaches the desk (as its status bar does on start): one already waits.
    approver = await joined('arun');
    notifying(approver);
    const reached = nextReading();
    const before = (await ok(approver, 'approvals.counts', {}))!.waiting;
    expect(before).toBe(1);
    await reached;
    expect(readings).toEqual([1]);
    expect(shown).toEqual([]);

    const told = nextShown();
    await propose();
    await told;
    expect(shown).toEqual([{ title: APPROVALS_NOTIFICATION_TITLE, body: approvalsNoticeText(before, before + 1) }]);
    expect(shown[0]!.body).toBe('A new proposal waits for your approval (2 in all): open Approvals to review.');
  });

  it('says nothing when a proposal leaves the queue; the next new one is told against the lower count', async () => {
    const first = nextShown();
    const gone = await propose();
    await first;
    const waiting = (await ok(approver, 'approvals.counts', {}))!.waiting;
    await ok(maker, 'approvals.withdraw', { id: gone.id });
    // The withdrawal's notice is read before the next proposal's (one reading at a time, in order): had it been
    // told, it would stand between the two.
    const told = nextShown();
    await propose();
    await told;
    expect(shown.slice(-2).map((n) => n.body)).toEqual([
      approvalsNoticeText(waiting - 1, waiting),
      approvalsNoticeText(waiting - 1, waiting),
    ]);
  });
});
