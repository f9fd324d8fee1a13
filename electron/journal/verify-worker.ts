/**
 * The worker that checks one stretch of a journal (verify-range.ts) on its own read-only connection, so the
 * stretches of a long journal are hashed on every core at once (verify.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { verifyRange } from './verify-range';

export interface VerifyWorkerData {
  file: string;
  nativeBinding: string | undefined;
  lo: number;
  hi: number;
  headSeq: number | null;
}

const { file, nativeBinding, lo, hi, headSeq } = workerData as VerifyWorkerData;
let db: Database.Database | undefined;
try {
  db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  parentPort!.postMessage({ check: verifyRange(db, lo, hi, headSeq) });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
} finally {
  db?.close();
}
