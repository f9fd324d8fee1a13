/**
 * A server that dies under a connection the console holds for several statements (a snapshot read, an action on
 * exceptions) on a real PostgreSQL: the call fails as "the desk cannot be reached", nothing is raised uncaught (an
 * uncaught error would end the main process), and the same call works once the server is back and the console has
 * dropped the connections it held idle. A server restarted before the console has heard of it: a read is asked again
 * and answers, an action is not asked twice. A listening connection whose server stops answering: taken as lost,
 * listened again, notices heard again.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Desk } from '../../electron/desk/desk';
import { createTestDesk, publishedException, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';
import { listenUncaught } from '../support/uncaught';

const DATE = '2026-06-12';

describe.runIf(postgresAvailable())('a desk connection lost under a client the console holds', () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let d: Desk;
  /** Resolves when the pool hears that a connection it held idle is gone. */
  let idleLost: Promise<void>;
  let uncaught: ReturnType<typeof listenUncaught>;

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator' });
    const setUp = await desk.open('olga');
    await setUp.exceptions.publish(DATE, [publishedException(1)]);
    await setUp.close();
  });
  afterAll(() => cluster?.destroy());
  beforeEach(async () => {
    // Opened with its pool's connections made (desk.ts keeps two), so the call below takes one the server drops.
    let heard!: () => void;
    idleLost = new Promise((resolve) => (heard = resolve));
    d = await desk.open('olga', 'olga-console', () => heard());
    uncaught = listenUncaught();
  });
  afterEach(async () => {
    // A test that failed with the server's processes paused lets them go first: closing waits on them.
    resume();
    uncaught.stop();
    await d.close();
  });

  /** Server processes a test paused (SIGSTOP), let go by `resume`. */
  let paused: number[] = [];
  const resume = () => {
    for (const pid of paused.splice(0)) process.kill(pid, 'SIGCONT');
  };

  /**
   * `call` made the moment the server has stopped, before the console has heard that its connections are gone; then
   * made again once the server is back.
   */
  async function acrossALoss<R>(call: () => Promise<R>, heardFirst: boolean): Promise<R> {
    cluster.stop();
    try {
      await expect(call()).rejects.toMatchObject({ code: 'DESK_UNREACHABLE' });
      // An action took one of the pool's two; the other, idle, is dropped when its loss is heard. A read tried each.
      if (heardFirst) await idleLost;
    } finally {
      cluster.start();
    }
    expect(uncaught.errors).toEqual([]);
    return call();
  }

  it('a snapshot of an account’s period', async () => {
    const again = await acrossALoss(() => d.reconciliation.snapshot(1, DATE, DATE), false);
    expect(again.lines).toEqual([]);
  });

  /** The server stopped and started again before the console's event loop has had a turn to hear of it. */
  const restartUnheard = () => {
    cluster.stop();
    cluster.start();
  };

  it('a read across a restart the console has not heard of: asked again, on a new connection', async () => {
    const queue = () => d.exceptions.queue({}, { offset: 0, limit: 10 });
    const before = await queue();
    expect(before.total).toBe(1);
    restartUnheard();
    expect(await queue()).toEqual(before);
    restartUnheard();
    expect(await d.reconciliation.snapshot(1, DATE, DATE)).toMatchObject({ lines: [] });
    expect(uncaught.errors).toEqual([]);
  });

  it('an action across a restart the console has not heard of: not asked twice', async () => {
    const [row] = (await d.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 })).rows;
    restartUnheard();
    await expect(d.exceptions.act(row!, 'acknowledge', null)).rejects.toMatchObject({ code: 'DESK_UNREACHABLE' });
    const [after] = (await d.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 })).rows;
    expect(after).toMatchObject({ state: 'open', version: row!.version });
    expect(uncaught.errors).toEqual([]);
  });

  it('a listening connection that stops answering is taken as lost, and listens again', async () => {
    const seen = { live: 0, lost: [] as string[], topics: [] as string[] };
    let waiting: (() => void)[] = [];
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (done() ? resolve() : waiting.push(check));
        check();
      });
    const tell = () => {
      const w = waiting;
      waiting = [];
      w.forEach((check) => check());
    };
    const stop = await d.listen(
      (topic) => {
        seen.topics.push(topic);
        tell();
      },
      (state, error) => {
        if (state === 'live') seen.live++;
        else seen.lost.push(error?.message ?? '');
        tell();
      },
      { retryMs: 50, checkMs: 100, answerMs: 300 },
    );
    try {
      await until(() => seen.live === 1);
      // This console's server processes paused, as a server behind a link that died without a word looks: nothing
      // answers and nothing is closed.
      const pids = await sessionsOf('olga-console');
      paused = pids;
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      await until(() => seen.lost.length === 1);
      resume();
      expect(seen.lost).toEqual([expect.stringMatching(/timeout/i)]);
      await until(() => seen.live === 2);
      // Notices reach it again: another console's publish is heard.
      const other = await desk.open('olga', 'olga-other');
      try {
        await other.exceptions.publish(DATE, [publishedException(2)]);
      } finally {
        await other.close();
      }
      await until(() => seen.topics.includes('exceptions'));
      expect(uncaught.errors).toEqual([]);
    } finally {
      await stop();
    }
  });

  /** The server's processes of one console's sessions, by the name it gives the server. */
  async function sessionsOf(consoleName: string): Promise<number[]> {
    const admin = new pg.Client(cluster.superuser);
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [`payout-console ${consoleName}`],
      );
      return rows.map((r) => r.pid);
    } finally {
      await admin.end();
    }
  }

  it('an action on an exception, which is not applied', async () => {
    const [row] = (await d.exceptions.queue({ state: 'open' }, { offset: 0, limit: 1 })).rows;
    const done = await acrossALoss(() => d.exceptions.act(row!, 'resolve', 'paid on the 14th'), true);
    expect(done.count).toBe(1);
    expect((await d.exceptions.queue({ state: 'resolved' }, { offset: 0, limit: 1 })).total).toBe(1);
  });
});
