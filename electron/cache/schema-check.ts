/**
 * A cache file must hold exactly the schema our migrations make, nothing more: a trigger planted in the file runs
 * inside our own writes (one that zeroes amounts on insert would corrupt every sync silently), a view in place of a
 * table answers our reads with what it likes, and a table we do not know is not ours to keep. The reference schema
 * for each version is made by running the migrations on an empty in-memory database, so it cannot drift from them.
 */
import Database from 'better-sqlite3';
import { LATEST_VERSION, migrate } from './migrations';

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

const SCHEMA_QUERY =
  "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name";

const reference = new Map<number, Map<string, string | null>>();

function keyOf(o: SchemaObject): string {
  return `${o.type} ${o.name} on ${o.tbl_name}`;
}

function referenceSchema(version: number, nativeBinding: string | undefined): Map<string, string | null> {
  let schema = reference.get(version);
  if (!schema) {
    const db = new Database(':memory:', nativeBinding ? { nativeBinding } : {});
    try {
      migrate(db, () => new Date(0), version);
      schema = new Map((db.prepare(SCHEMA_QUERY).all() as SchemaObject[]).map((o) => [keyOf(o), o.sql]));
    } finally {
      db.close();
    }
    reference.set(version, schema);
  }
  return schema;
}

/**
 * What is wrong with the schema of an open cache, in words for the user, or null when it is exactly ours. SQLite's own
 * objects (`sqlite_*`: the statistics `PRAGMA optimize` keeps, autoindexes) are left to SQLite.
 */
export function schemaProblem(db: Database.Database, nativeBinding?: string): string | null {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > LATEST_VERSION) {
    return `it was written by a newer version of the app (schema ${version}; this one knows up to ${LATEST_VERSION})`;
  }
  if (version < 0) return `its schema version ${version} is not one of ours`;
  const expected = referenceSchema(version, nativeBinding);
  const found = db.prepare(SCHEMA_QUERY).all() as SchemaObject[];
  const foreign = found.filter((o) => !expected.has(keyOf(o)) || expected.get(keyOf(o)) !== o.sql);
  if (foreign.length > 0) {
    const named = foreign.slice(0, 3).map((o) => `${o.type} "${o.name}"`);
    const more = foreign.length > 3 ? ` and ${foreign.length - 3} more` : '';
    return `it holds objects the app did not make (${named.join(', ')}${more})`;
  }
  const present = new Set(found.map(keyOf));
  const missing = [...expected.keys()].filter((k) => !present.has(k));
  if (missing.length > 0) return `parts of its schema are missing (${missing.slice(0, 3).join(', ')})`;
  return null;
}

/** A write refused because the open file's schema stopped being ours while the app held it (a planted trigger). */
export class CacheSchemaError extends Error {
  override name = 'CacheSchemaError';
  readonly code = 'CACHE_SCHEMA_CHANGED';
}

/**
 * A check each sync write runs first: throws CacheSchemaError when the schema of the open cache is not ours. The whole
 * comparison takes about a millisecond (two seconds over a 2,000,000-record ingest's pages), so it runs only when
 * SQLite's schema cookie has moved since the last one that passed: any change of the schema by any connection moves
 * it, and this connection only ever runs the schema it loaded when it last saw the cookie move, so a change whose
 * cookie was put back by hand is one this connection never runs either.
 */
export function createSchemaGuard(db: Database.Database, nativeBinding?: string): () => void {
  const cookie = db.prepare('SELECT schema_version FROM pragma_schema_version').pluck();
  let passed: unknown = null;
  return () => {
    const now = cookie.get();
    if (now === passed) return;
    const problem = schemaProblem(db, nativeBinding);
    if (problem !== null) {
      throw new CacheSchemaError(
        `Nothing was written to the local cache: ${problem}. Close the app (or the command) and open it again: ` +
          'the file is then moved aside, a new cache started, and the next sync fills it.',
      );
    }
    passed = now;
  };
}
