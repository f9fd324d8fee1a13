/**
 * A profile's desk settings and a person's password as node-postgres settings. TLS is verify-full: the CA file the
 * desk's administrator hands out, and the server's name checked against its certificate (Node's TLS does that
 * whenever rejectUnauthorized is on). Dates stay as the `YYYY-MM-DD` text the rest of the console uses.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DeskConnection } from '../../shared/desk';
import { DeskError } from './errors';

const DATE_OID = 1082;
const INT8_OID = 20;

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === DATE_OID) return (value: string) => value;
    // Counts, sequence numbers and paise: far below 2^53 on any desk.
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

export interface DeskLogin {
  connection: DeskConnection;
  password: string;
  /** Shown to the server as application_name: which console a session belongs to, in pg_stat_activity. */
  console: string;
}

export function clientConfig({ connection, password, console }: DeskLogin): pg.PoolConfig {
  let ssl: pg.PoolConfig['ssl'] = false;
  if (connection.tls === 'verify-full') {
    let ca: string;
    try {
      ca = readFileSync(connection.caFile!, 'utf8');
    } catch (e) {
      throw new DeskError(
        'BAD_INPUT',
        `The desk's CA file ${connection.caFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'unknown error'}).`,
      );
    }
    ssl = { ca, rejectUnauthorized: true, servername: connection.host };
  }
  return {
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password,
    ssl,
    types,
    application_name: `payout-console ${console}`.slice(0, 63),
    connectionTimeoutMillis: 5_000,
    // A statement that waits this long on a lock is a desk in trouble, not a busy one.
    statement_timeout: 60_000,
  };
}
