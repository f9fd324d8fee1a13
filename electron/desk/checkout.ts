/**
 * A pool client held for several statements (a transaction, a snapshot). node-postgres reports a connection that
 * dies under a client as an 'error' event on it, as well as by failing the statement in flight, and a client taken
 * from the pool has no listener of its own: the pool's is put back only at release. Unheard, that event is an
 * uncaught exception that ends the main process. So every client is taken here, heard from until it is back in the
 * pool, and the loss is handled where it surfaces: in the statement that failed.
 */
import type pg from 'pg';
import { DeskError, deskErrorOf, isUnreachable } from './errors';

const lost = (e: unknown) =>
  isUnreachable(e) || (e instanceof DeskError && (e.code === 'DESK_UNREACHABLE' || e.code === 'DESK_OUTCOME_UNKNOWN'));

/** `use` with a client of the pool; the client goes back (or, its connection lost, is dropped) whatever happens. */
export async function withClient<R>(pool: pg.Pool, use: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw deskErrorOf(e);
  }
  const heard = () => undefined;
  client.on('error', heard);
  let failure: unknown;
  try {
    return await use(client);
  } catch (e) {
    failure = e;
    throw e;
  } finally {
    client.off('error', heard);
    // A lost connection is never handed out again; the pool would notice anyway, this says so.
    client.release(lost(failure) ? (failure as Error) : undefined);
  }
}

/** `read` on one consistent, read-only view of the desk; its failures as the desk's errors. */
export function readSnapshot<R>(pool: pg.Pool, read: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  return withClient(pool, async (client) => {
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await read(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw deskErrorOf(e);
    }
  });
}
