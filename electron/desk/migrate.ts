/**
 * `desk init`: the desk's owner role, its schema and every migration the database lacks, each in its own
 * transaction under an advisory lock (two admins running it at once take turns), recorded with who applied it.
 * Run again, it changes nothing. It needs a login that may create roles (the server's administrator); everything
 * it creates belongs to `desk_owner`, a role no one logs in as, so the desk's functions never run as a superuser.
 */
import type pg from 'pg';
import { DESK_MIGRATIONS, DESK_SCHEMA_VERSION } from './migrations';

/** "desk": one advisory lock for every desk init on the server. */
export const DESK_INIT_LOCK = 0x7065736b;

export interface InitResult {
  applied: { version: number; name: string }[];
  version: number;
}

export async function initDesk(client: pg.ClientBase): Promise<InitResult> {
  await client.query('SELECT pg_advisory_lock($1)', [DESK_INIT_LOCK]);
  try {
    await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'desk_owner') THEN
        CREATE ROLE desk_owner NOLOGIN CREATEROLE;
      END IF;
    END $$`);
    // A managed server's administrator is no superuser: it needs membership to act as the owner.
    await client.query('GRANT desk_owner TO CURRENT_USER');
    await client.query('CREATE SCHEMA IF NOT EXISTS desk AUTHORIZATION desk_owner');
    await client.query(`CREATE TABLE IF NOT EXISTS desk.migrations (
      version integer PRIMARY KEY, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT session_user)`);
    await client.query('ALTER TABLE desk.migrations OWNER TO desk_owner');
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM desk.migrations')).rows.map((r) => r.version),
    );
    const applied: InitResult['applied'] = [];
    for (const m of DESK_MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query('SET LOCAL ROLE desk_owner');
        await client.query(m.sql);
        await client.query('INSERT INTO desk.migrations (version, name, applied_by) VALUES ($1, $2, session_user)', [
          m.version,
          m.name,
        ]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
      applied.push({ version: m.version, name: m.name });
    }
    await client.query('GRANT SELECT ON desk.migrations TO viewer');
    return { applied, version: DESK_SCHEMA_VERSION };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [DESK_INIT_LOCK]);
  }
}

/** The desk's schema version, or null where the database holds no desk. */
export async function schemaVersion(client: pg.ClientBase | pg.Pool): Promise<number | null> {
  const found = await client.query<{ v: number | null }>(
    "SELECT CASE WHEN to_regclass('desk.migrations') IS NULL THEN NULL ELSE 0 END AS v",
  );
  if (found.rows[0]!.v === null) return null;
  return (await client.query<{ v: number }>('SELECT coalesce(max(version), 0)::int AS v FROM desk.migrations')).rows[0]!
    .v;
}
