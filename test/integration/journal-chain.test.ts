/**
 * The journal's hash chain on a real cache file, tampered with through a second SQLite connection as someone with
 * the file would: a changed field, a deleted, inserted or reordered entry, a truncated tail, and a chain rewritten
 * from scratch. Each is caught and named; an untouched journal verifies. The head lives in a real settings file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../electron/cache/database';
import { canonicalEntry, canonicalJson, chainHash } from '../../electron/journal/canonical';
import { SQL_CANONICAL, SQL_CANONICAL_GUARDED } from '../../electron/journal/verify-range';
import { createJournal, type Journal } from '../../electron/journal/journal';
import { createProfileStore, type ProfileStore } from '../../electron/profiles/profile-store';
import { GENESIS_HASH } from '../../shared/journal';
import { testClock } from '../support/clock';

const PROFILE = 'profile-under-test';
let dir: string;
let cache: Cache;
let settings: ProfileStore;
let journal: Journal;
const clock = testClock();
const now = () => new Date(clock());

function open() {
  cache = openCache(join(dir, 'cache.sqlite'), { now });
  settings = createProfileStore({ dataDir: dir, sandbox: null, now });
  journal = createJournal({
    db: cache.db,
    profileId: PROFILE,
    heads: settings,
    appVersion: '9.9.9',
    osUser: 'asha',
    now,
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-chain-'));
  open();
  for (let i = 1; i <= 5; i++) {
    journal.append({
      kind: 'export',
      event: 'export.settlements',
      outcome: 'completed',
      summary: `Export ${i}`,
      data: { rows: i * 10, totals: { amount: i * 100_00 }, fileName: `f${i}.xlsx` },
    });
  }
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Another connection on the same file, as a tamperer would open it. */
function tamper(sql: string, ...params: unknown[]): void {
  const db = new Database(cache.file);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

// Each case runs as one pass on the cache's connection and cut into three stretches checked in worker threads
// (a stretch of one or two entries, so every tampering meets a boundary somewhere): both must give the same answer.
describe.each([
  ['one pass', { threads: 1 }],
  ['three worker threads', { threads: 3, minEntriesPerThread: 1 }],
] as const)('the chain, verified in %s', (_, mode) => {
  const verify = () => journal.verify(mode);

  it('verifies untouched, each entry hashing the previous hash and its canonical form', async () => {
    const result = await verify();
    expect(result).toMatchObject({ ok: true, entries: 5, problem: null });
    const entries = journal.list();
    expect(entries.map((e) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    const first = journal.get(1)!;
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(first).toMatchObject({ appVersion: '9.9.9', osUser: 'asha' });
    // The hand-written canonical form is the sorted-key JSON of the entry's fields.
    const fields = {
      seq: first.seq,
      at: first.at,
      kind: first.kind,
      event: first.event,
      outcome: first.outcome,
      refersTo: first.refersTo,
      requestId: first.requestId,
      summary: first.summary,
      data: canonicalJson(first.data),
      appVersion: first.appVersion,
      osUser: first.osUser,
    };
    expect(canonicalEntry(fields)).toBe(canonicalJson({ ...fields, data: first.data }));
    expect(first.hash).toBe(chainHash(GENESIS_HASH, canonicalEntry(fields)));
    expect(journal.get(2)!.prevHash).toBe(first.hash);
    expect(result.headHash).toBe(journal.get(5)!.hash);
    expect(settings.journalHead(PROFILE)).toEqual({ seq: 5, hash: journal.get(5)!.hash });
  });

  it('names an edited field', async () => {
    tamper(
      `UPDATE journal SET data = ? WHERE seq = 3`,
      canonicalJson({ rows: 31, totals: { amount: 300_00 }, fileName: 'f3.xlsx' }),
    );
    expect((await verify()).problem).toMatchObject({ seq: 3, kind: 'edited' });
  });

  it('names an edit of a field outside the data, the time', async () => {
    tamper(`UPDATE journal SET at = '2020-01-01T00:00:00.000Z' WHERE seq = 2`);
    expect((await verify()).problem).toMatchObject({ seq: 2, kind: 'edited' });
  });

  it("reads SQLite's form of an entry as canonicalEntry writes it, and checks by the fields where it differs", async () => {
    // Text JSON must escape and text it must not, and a reference and request id where the others hold null.
    journal.append({
      kind: 'action',
      event: 'payout.create',
      outcome: 'completed',
      refersTo: 2,
      requestId: 'req "quoted" \\ back\u0001\n\t\u007f',
      summary: 'Paid ₹1,20,000.50 to Zoë 🙂 line\u2028sep </script>',
      data: { note: 'tab\there', nested: [1, null, 'x'] },
    });
    const db = new Database(cache.file, { readonly: true });
    try {
      // The form pages are read in, and the one a page holding a BLOB is read again in.
      const sql = db
        .prepare(`SELECT seq, ${SQL_CANONICAL}, ${SQL_CANONICAL_GUARDED} FROM journal ORDER BY seq`)
        .raw()
        .all() as [number, string, string][];
      expect(sql).toHaveLength(6);
      for (const [seq, text, guardedText] of sql) {
        const e = journal.get(seq)!;
        const fields = { ...e, data: canonicalJson(e.data) };
        expect(text, `entry ${seq}`).toBe(canonicalEntry(fields));
        expect(guardedText, `entry ${seq}`).toBe(text);
      }
    } finally {
      db.close();
    }
    expect(await verify()).toMatchObject({ ok: true, entries: 6 });
    // The same number stored as a real: SQLite writes it "2.0", JavaScript reads it as 2. The entry still holds.
    tamper('UPDATE journal SET refers_to = 2.0 WHERE seq = 6');
    expect(await verify()).toMatchObject({ ok: true, entries: 6, problem: null });
    // A field turned into bytes is an edit, named as one (json_quote refuses a BLOB: the check must not stop).
    tamper('UPDATE journal SET summary = CAST(summary AS BLOB) WHERE seq = 4');
    expect((await verify()).problem).toMatchObject({ seq: 4, kind: 'edited' });
  });

  it('still names the first problem when a later entry of the same page holds a BLOB', async () => {
    // json_quote refuses the BLOB, so the page is read again in the guarded form: entry 2 comes first.
    const at = journal.get(2)!.at;
    tamper(`UPDATE journal SET at = '2020-01-01T00:00:00.000Z' WHERE seq = 2`);
    tamper('UPDATE journal SET event = CAST(event AS BLOB) WHERE seq = 4');
    expect((await verify()).problem).toMatchObject({ seq: 2, kind: 'edited' });
    tamper('UPDATE journal SET at = ? WHERE seq = 2', at);
    expect((await verify()).problem).toMatchObject({ seq: 4, kind: 'edited' });
  });

  it('names hashes edited to other lengths or characters, which the page cannot be cut by', async () => {
    const [second, third] = [journal.get(2)!, journal.get(3)!];
    const thirdForm = canonicalEntry({ ...third, data: canonicalJson(third.data) });
    // A character moved from the end of the hash to the front of the link: cut at 64, both would look right.
    const hashed = chainHash(second.hash, thirdForm);
    tamper('UPDATE journal SET hash = ?, prev_hash = ? WHERE seq = 3', hashed.slice(0, 63), hashed[63] + second.hash);
    expect((await verify()).problem).toMatchObject({ seq: 3, kind: 'broken_link' });
    tamper('UPDATE journal SET hash = ?, prev_hash = ? WHERE seq = 3', third.hash, second.hash);
    expect(await verify()).toMatchObject({ ok: true, entries: 5 });
    // 64 bytes, 63 characters: the slices after it are out of place; the link still holds, the hash does not.
    tamper('UPDATE journal SET hash = ? WHERE seq = 2', second.hash.slice(0, 62) + 'é');
    expect((await verify()).problem).toMatchObject({ seq: 2, kind: 'edited' });
    tamper('UPDATE journal SET hash = ? WHERE seq = 2', second.hash);
    tamper('UPDATE journal SET prev_hash = ? WHERE seq = 3', second.hash.slice(0, 62) + 'é');
    expect((await verify()).problem).toMatchObject({ seq: 3, kind: 'broken_link' });
  });

  it('names a deleted entry', async () => {
    tamper('DELETE FROM journal WHERE seq = 3');
    const r = await verify();
    expect(r.ok).toBe(false);
    expect(r.problem).toMatchObject({ seq: 3, kind: 'sequence_gap' });
  });

  it('names a deleted entry whose followers were renumbered', async () => {
    tamper('DELETE FROM journal WHERE seq = 3');
    tamper('UPDATE journal SET seq = seq - 1 WHERE seq > 3');
    expect((await verify()).problem).toMatchObject({ seq: 3, kind: 'broken_link' });
  });

  it('names an inserted entry, even one hashed correctly onto the one before it', async () => {
    const second = journal.get(2)!;
    const forged = {
      seq: 3,
      at: second.at,
      kind: 'export',
      event: 'export.settlements',
      outcome: 'completed',
      refersTo: null,
      requestId: null,
      summary: 'An export that never happened',
      data: canonicalJson({ rows: 1 }),
      appVersion: '9.9.9',
      osUser: 'asha',
    };
    // Make room at 3 (from the end, so the primary key never collides), then slip the forged entry in.
    for (let seq = 5; seq >= 3; seq--) tamper('UPDATE journal SET seq = seq + 1 WHERE seq = ?', seq);
    tamper(
      'INSERT INTO journal VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ...[3, forged.at, forged.kind, forged.event, forged.outcome, null, null, forged.summary, forged.data],
      forged.appVersion,
      forged.osUser,
      second.hash,
      chainHash(second.hash, canonicalEntry(forged)),
    );
    // The forged entry itself holds; the one after it no longer follows.
    expect((await verify()).problem).toMatchObject({ seq: 4, kind: 'broken_link' });
  });

  it('names reordered entries', async () => {
    const two = journal.get(2)!;
    const three = journal.get(3)!;
    tamper('UPDATE journal SET seq = 99 WHERE seq = 2');
    tamper('UPDATE journal SET seq = 2 WHERE seq = 3');
    tamper('UPDATE journal SET seq = 3 WHERE seq = 99');
    expect(two.seq).toBe(2);
    expect(three.seq).toBe(3);
    expect((await verify()).problem).toMatchObject({ seq: 2, kind: 'broken_link' });
  });

  it('names a truncated tail through the head kept in the settings', async () => {
    tamper('DELETE FROM journal WHERE seq >= 4');
    const r = await verify();
    expect(r.entries).toBe(3);
    expect(r.problem).toMatchObject({ seq: 4, kind: 'truncated' });
    expect(r.problem!.message).toContain('entry 5 was written');
  });

  it('names a chain rewritten from the start with valid hashes, against the head in the settings', async () => {
    tamper(`UPDATE journal SET summary = 'rewritten' WHERE seq = 1`);
    // Recompute every hash, as a careful tamperer would.
    const db = new Database(cache.file);
    let prev = GENESIS_HASH;
    type Row = Record<'at' | 'kind' | 'event' | 'outcome' | 'summary' | 'data' | 'app_version' | 'os_user', string> & {
      seq: number;
      refers_to: number | null;
      request_id: string | null;
    };
    for (const r of db.prepare('SELECT * FROM journal ORDER BY seq').all() as Row[]) {
      const hash = chainHash(
        prev,
        canonicalEntry({
          seq: r.seq,
          at: r.at,
          kind: r.kind,
          event: r.event,
          outcome: r.outcome,
          refersTo: r.refers_to,
          requestId: r.request_id,
          summary: r.summary,
          data: r.data,
          appVersion: r.app_version,
          osUser: r.os_user,
        }),
      );
      db.prepare('UPDATE journal SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, hash, r.seq);
      prev = hash;
    }
    db.close();
    expect((await verify()).problem).toMatchObject({ seq: 5, kind: 'head_mismatch' });
  });

  it('names entries appended behind the settings’ back', async () => {
    const db = new Database(cache.file);
    const other = createJournal({
      db,
      profileId: PROFILE,
      heads: { journalHead: () => null, setJournalHead: () => {} },
      appVersion: '9.9.9',
      osUser: 'mallory',
      now,
    });
    other.append({ kind: 'cache', event: 'cache.cleared', outcome: 'done', summary: 'quietly' });
    db.close();
    expect((await verify()).problem).toMatchObject({ seq: 6, kind: 'head_mismatch' });
  });

  it('survives reopening: a new process continues the chain and the head', async () => {
    cache.close();
    open();
    journal.append({ kind: 'cache', event: 'cache.cleared', outcome: 'done', summary: 'after reopening' });
    expect(await verify()).toMatchObject({ ok: true, entries: 6 });
  });
});

describe('reading', () => {
  it('filters by kind, outcome, IST date and text, newest first, and pages with before', () => {
    journal.append({ kind: 'action', event: 'beneficiary.create', outcome: 'attempted', summary: 'Asked to add Asha' });
    expect(journal.list({ kind: 'action' }).map((e) => e.seq)).toEqual([6]);
    expect(journal.list({ outcome: 'completed' })).toHaveLength(5);
    expect(journal.list({ text: 'F3.XLSX' }).map((e) => e.seq)).toEqual([3]);
    const today = journal.get(1)!.atIst.slice(0, 10);
    expect(journal.list({ from: today, to: today })).toHaveLength(6);
    expect(journal.list({ to: '2000-01-01' })).toHaveLength(0);
    expect(journal.list({ before: 3, limit: 1 }).map((e) => e.seq)).toEqual([2]);
  });

  it('lists attempts with no outcome as unresolved', () => {
    const attempt = journal.append({ kind: 'action', event: 'beneficiary.create', outcome: 'attempted', summary: 'a' });
    expect(journal.unresolved().map((u) => u.attempt.seq)).toEqual([attempt.seq]);
    journal.append({
      kind: 'action',
      event: 'beneficiary.create',
      outcome: 'unknown',
      summary: 'b',
      refersTo: attempt.seq,
    });
    expect(journal.unresolved()[0]!.outcome!.outcome).toBe('unknown');
    journal.append({
      kind: 'action',
      event: 'beneficiary.create.check',
      outcome: 'succeeded',
      summary: 'c',
      refersTo: attempt.seq,
    });
    expect(journal.unresolved()).toEqual([]);
  });

  it('keeps a change and its entry together: a change that throws leaves neither', async () => {
    expect(() =>
      journal.transact((append) => {
        append({ kind: 'cache', event: 'cache.cleared', outcome: 'done', summary: 'x' });
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    expect(journal.head().seq).toBe(5);
    expect((await journal.verify()).ok).toBe(true);
  });
});
