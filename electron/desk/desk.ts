/**
 * A console's connection to its desk: a small pool for reads and actions, one more connection that LISTENs for the
 * desk's notices (migrations/006-live.ts), and the schema check — a desk migrated by a newer console is read here
 * but never written, since this console cannot know what the newer schema expects.
 */
import pg from 'pg';
import { DESK_ROLES, type DeskRole } from '../../shared/desk';
import { clientConfig, type DeskLogin } from './connection';
import { withClient } from './checkout';
import { DeskError, deskErrorOf } from './errors';
import { createDeskApprovals } from './approvals';
import { createDeskExceptions } from './exceptions';
import { createDeskJournal } from './journal';
import { DESK_SCHEMA_VERSION } from './migrations';
import { schemaVersion } from './migrate';
import { createDeskPeople } from './people';
import { createDeskPeriods } from './periods';
import { createDeskReconciliation } from './reconciliation';

export type DeskTopic =
  'exceptions' | 'periods' | 'people' | 'journal' | 'reconciliation' | 'proposals' | 'approval_policy';

/** The desk announces the table a statement changed; the reconciliation's tables are one topic to a console. */
const RECONCILIATION_TABLES = new Set([
  'bank_accounts',
  'bank_lines',
  'recon_matches',
  'recon_apart',
  'recon_settings',
  'settlement_batches',
]);
const topicOf = (table: string): DeskTopic =>
  RECONCILIATION_TABLES.has(table) ? 'reconciliation' : (table as DeskTopic);

export interface DeskStatus {
  person: string;
  role: DeskRole | null;
  schemaVersion: number;
  consoleSchemaVersion: number;
  writable: boolean;
  /** Why this console may not write, when it may not. */
  readOnlyReason: string | null;
}

export interface OpenDeskOptions extends DeskLogin {
  /** Idle connections that fail (the server restarted) are reported here rather than crashing the process. */
  onError?: (e: Error) => void;
}

async function roleOf(pool: pg.Pool): Promise<DeskRole | null> {
  const { rows } = await pool.query<{ role: DeskRole | null }>(
    `SELECT (SELECT g FROM unnest($1::text[]) WITH ORDINALITY AS r(g, i)
              WHERE pg_has_role(session_user, g, 'USAGE') ORDER BY i DESC LIMIT 1) AS role`,
    [[...DESK_ROLES]],
  );
  return rows[0]!.role;
}

/**
 * Connections opened with the desk and kept while the console is idle: a queue read asks for its page and its totals
 * at once (exceptions.ts), and a connection made for a read (TCP, TLS, the password's SCRAM exchange) is the read's
 * slowest part. Others, up to the pool's most, close after half a minute idle.
 */
const WARM_CONNECTIONS = 2;
const POOL_MAX = 4;

/**
 * How often the connection that listens for the desk's notices is asked whether it still answers, and how long it has
 * to answer. A connection can die without a word (a firewall's idle timeout, a laptop that slept or changed network):
 * the console would hear no more notices and not know it. Asked, it answers in a millisecond.
 */
const LISTEN_CHECK_MS = 15_000;
const LISTEN_ANSWER_MS = 5_000;

/** Who this console is on the desk, and whether it may write there. */
async function statusOf(pool: pg.Pool, person: string): Promise<DeskStatus> {
  const version = await schemaVersion(pool);
  if (version === null || version === 0) {
    throw new DeskError('DESK_NOT_INITIALISED', 'This database holds no desk yet: an admin runs `desk init` first.');
  }
  const newer = version > DESK_SCHEMA_VERSION;
  return {
    person,
    role: await roleOf(pool),
    schemaVersion: version,
    consoleSchemaVersion: DESK_SCHEMA_VERSION,
    writable: !newer,
    readOnlyReason: newer
      ? `The desk's schema (version ${version}) is newer than this console's (${DESK_SCHEMA_VERSION}): update the console to make changes; until then it only reads.`
      : null,
  };
}

export interface ListenTiming {
  /** Between tries to listen again once the connection is lost. */
  retryMs?: number;
  /** Between checks that the connection still answers. */
  checkMs?: number;
  /** How long a check has to answer before the connection counts as lost. */
  answerMs?: number;
}

/**
 * Listens for the desk's notices on a connection of its own, calling `onChange` with the table each change touched,
 * until the returned function is called. A lost connection (one that errs, or leaves a check unanswered) is reported
 * through `onState` and tried again every `retryMs`.
 */
async function listenOn(
  config: pg.ClientConfig,
  onChange: (topic: DeskTopic) => void,
  onState: (state: 'live' | 'lost', error?: Error) => void,
  { retryMs = 2_000, checkMs = LISTEN_CHECK_MS, answerMs = LISTEN_ANSWER_MS }: ListenTiming,
): Promise<() => Promise<void>> {
  let listener: pg.Client | null = null;
  let check: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const connect = async () => {
    if (stopped) return;
    const client = new pg.Client({ ...config, query_timeout: answerMs });
    let gone = false;
    // Once per connection, whichever comes first: its error, its unanswered check, its failed start.
    const lose = (e: Error) => {
      if (gone) return;
      gone = true;
      if (listener === client) {
        clearInterval(check);
        listener = null;
      }
      // A check left unanswered is still in flight: ending the client then destroys its socket.
      void client.end().catch(() => undefined);
      if (stopped) return;
      onState('lost', e);
      retry();
    };
    client.on('notification', (n) => onChange(topicOf(n.payload ?? '')));
    client.on('error', lose);
    try {
      await client.connect();
      await client.query('LISTEN desk');
      if (stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      listener = client;
      check = setInterval(() => void client.query('SELECT 1').catch(lose), checkMs);
      onState('live');
    } catch (e) {
      lose(e as Error);
    }
  };
  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retryMs);
  };
  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    clearInterval(check);
    const l = listener;
    listener = null;
    await l?.end().catch(() => undefined);
  };
}

/**
 * A read handed a connection the pool held idle while the server went away (a restart the pool has not heard of yet)
 * fails as "cannot be reached", the server up again or not. Such a read is asked again while the pool held idle
 * connections when it was asked, each dead one dropped by its failure, so the last try makes a connection of its
 * own: that one's failure is the answer. Only reads: an action is never asked twice (what was sent may have been
 * applied). `readAgain` wraps one read, `reads` the named reads of one of the desk's parts.
 */
function readsOn(pool: pg.Pool) {
  const readAgain =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      for (let tries = 1; ; tries++) {
        const heldIdle = pool.idleCount > 0;
        try {
          return await f(...args);
        } catch (e) {
          const lost = e instanceof DeskError && e.code === 'DESK_UNREACHABLE';
          if (!lost || !heldIdle || tries > POOL_MAX) throw e;
        }
      }
    };
  const reads = <M extends object, K extends keyof M>(module: M, names: readonly K[]) =>
    Object.fromEntries(names.map((n) => [n, readAgain(module[n] as (...args: unknown[]) => Promise<unknown>)])) as Pick<
      M,
      K
    >;
  return { readAgain, reads };
}

export async function openDesk(options: OpenDeskOptions) {
  const config = clientConfig(options);
  const pool = new pg.Pool({ ...config, max: POOL_MAX, min: WARM_CONNECTIONS, idleTimeoutMillis: 30_000 });
  pool.on('error', (e) => options.onError?.(e));
  let status: DeskStatus;
  try {
    status = await statusOf(pool, options.connection.user);
    // Best effort: a connection the server refuses now (its connections all taken) is asked again by the read.
    // All asked at once, so each is a connection of its own (one that is free would be handed out again).
    await Promise.allSettled(Array.from({ length: WARM_CONNECTIONS }, () => withClient(pool, async () => undefined)));
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw deskErrorOf(e);
  }

  const writes =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (!status.writable) return Promise.reject(new DeskError('DESK_SCHEMA_NEWER', status.readOnlyReason!));
      return f(...args);
    };

  const { readAgain, reads } = readsOn(pool);

  const exceptions = createDeskExceptions(pool, options.connection.user, options.console);
  const periods = createDeskPeriods(pool, options.console);
  const people = createDeskPeople(pool, options.console);
  const journal = createDeskJournal(pool, options.console);
  const approvals = createDeskApprovals(pool, options.connection.user, options.console);
  const reconciliation = createDeskReconciliation(pool, options.console);

  const listening = new Set<() => Promise<void>>();
  let closed = false;

  return {
    status: () => ({ ...status }),
    /** Whether the server answers now; a DeskError saying why when it does not. */
    ping: readAgain(async (): Promise<void> => {
      try {
        await pool.query('SELECT 1');
      } catch (e) {
        throw deskErrorOf(e);
      }
    }),
    exceptions: {
      ...reads(exceptions, ['queue', 'states', 'row', 'events']),
      publish: writes(exceptions.publish),
      act: writes(exceptions.act),
      bulk: writes(exceptions.bulk),
    },
    periods: { ...reads(periods, ['list']), close: writes(periods.close), reopen: writes(periods.reopen) },
    people: { ...reads(people, ['list']), add: writes(people.add), remove: writes(people.remove) },
    journal: {
      ...reads(journal, ['list', 'get', 'verify']),
      append: writes(journal.append),
      mirror: writes(journal.mirror),
    },
    approvals: {
      ...reads(approvals, ['policy', 'needed', 'get', 'list', 'counts']),
      setPolicy: writes(approvals.setPolicy),
      propose: writes(approvals.propose),
      approve: writes(approvals.approve),
      reject: writes(approvals.reject),
      withdraw: writes(approvals.withdraw),
      recordOutcome: writes(approvals.recordOutcome),
    },
    reconciliation: {
      ...reads(reconciliation, ['accounts', 'account', 'settings', 'snapshot', 'credits', 'batches', 'gateways']),
      importStatement: writes(reconciliation.importStatement),
      matchByHand: writes(reconciliation.matchByHand),
      unmatch: writes(reconciliation.unmatch),
      saveSettings: writes(reconciliation.saveSettings),
      publishBatches: writes(reconciliation.publishBatches),
    },

    /**
     * Calls `onChange` with the table each change touched, from any console, until the returned function is
     * called (`listenOn`); the desk's close stops it too.
     */
    async listen(
      onChange: (topic: DeskTopic) => void,
      onState: (state: 'live' | 'lost', error?: Error) => void = () => undefined,
      timing: ListenTiming = {},
    ): Promise<() => Promise<void>> {
      const stop = await listenOn(config, onChange, onState, timing);
      const stopOnce = async () => {
        listening.delete(stopOnce);
        await stop();
      };
      listening.add(stopOnce);
      // Closed while it connected: stopped with the rest.
      if (closed) await stopOnce();
      return stopOnce;
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all([...listening].map((stop) => stop()));
      await pool.end().catch(() => undefined);
    },
  };
}
export type Desk = Awaited<ReturnType<typeof openDesk>>;
