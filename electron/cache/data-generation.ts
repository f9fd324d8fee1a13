/**
 * What a connection's reads would see, as one value that changes whenever the file's data may have: SQLite's
 * `data_version` (bumped when another connection, in this process or another, has committed) with the rows this
 * connection itself has changed (`total_changes()`, which `data_version` does not count). Equal values mean no
 * write in between, so an answer computed from the file under one value still holds under it; any write at all
 * (a rolled-back one too) changes it, which only costs a recomputation. Read inside a transaction, it is that
 * transaction's snapshot's.
 */
import type { Database } from 'better-sqlite3';

export function createDataGeneration(db: Database): () => string {
  const read = db.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
  return () => {
    const [changes, version] = read.get() as [number, number];
    return `${version}:${changes}`;
  };
}
