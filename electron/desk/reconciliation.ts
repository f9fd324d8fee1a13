/**
 * The desk's reconciliation, from a console: its bank accounts, statement lines, matches made by hand, the pairs
 * taken apart and the match settings, read as one snapshot of an account's period; and the four writes, each one
 * call of a function of migrations/007-reconciliation.ts that journals the person. Batches are each console's own,
 * from its cache, except on a console whose profile holds no API secret: it reads the batch totals syncing consoles
 * published (migrations/010-settlement-batches.ts), and electron/reconciliation/desk-view.ts puts the two together.
 */
import type pg from 'pg';
import {
  DEFAULT_RECON_SETTINGS,
  reconSettings,
  type BatchKey,
  type ProposedMatch,
  type ReconSettings,
} from '../../shared/bank-matching';
import { columnMapping, type ColumnMapping, type StatementLineIn } from '../../shared/bank-statement';
import type { BankAccount, BatchRow, StoredLine, StoredMatch } from '../cache/reconciliation';
import { readSnapshot } from './checkout';
import { deskErrorOf } from './errors';

/** An account's lines of a period and every match by hand and apart pair that bears on them, read at one instant. */
export interface DeskReconSnapshot {
  settings: ReconSettings;
  lines: StoredLine[];
  /** This account's matches by hand, each with its credits. */
  matches: (StoredMatch & { accountId: number; lines: { id: number; date: string; amount: number }[] })[];
  /** Every account's matches by hand, by batch: a batch matched in any account is not offered again. */
  matchedBatches: (BatchKey & { id: number })[];
  apart: Set<string>;
  /** The account's statements whose lines fall in the snapshot's dates, with the dates of their lines. */
  statements: DeskStatement[];
}

/** A statement on the desk. The desk keeps no completeness proof (its tables have no place for one). */
export interface DeskStatement {
  fileName: string;
  layout: string;
  importedAt: string;
  from: string;
  to: string;
}

interface AccountRow {
  id: number;
  name: string;
  mapping: unknown;
}

const toAccount = (r: AccountRow): BankAccount => {
  const mapping = columnMapping.safeParse(r.mapping);
  return { id: r.id, name: r.name, gateways: null, mapping: mapping.success ? mapping.data : null };
};

const settingsOf = (value: unknown): ReconSettings => {
  // Settings stored before a setting existed take its default, as the cache's do.
  const p = reconSettings.safeParse({ ...DEFAULT_RECON_SETTINGS, ...(value as object | null) });
  return p.success ? p.data : DEFAULT_RECON_SETTINGS;
};

/** An account's period as one snapshot (see DeskReconSnapshot). */
function snapshotOf(pool: pg.Pool, accountId: number, from: string, to: string): Promise<DeskReconSnapshot> {
  return readSnapshot(pool, async (client) => {
    const settings = await client.query<{ value: unknown }>(
      "SELECT value FROM desk.recon_settings WHERE key = 'matching'",
    );
    const lines = await client.query<StoredLine>(
      `SELECT l.id, l.date, l.value_date AS "valueDate", l.narration, l.reference, l.amount, l.balance, l.rail,
                l.utr, l.row_number AS "rowNumber", ml.match_id AS "matchId"
           FROM desk.bank_lines l LEFT JOIN desk.recon_match_lines ml ON ml.line_id = l.id
          WHERE l.account_id = $1 AND l.date BETWEEN $2 AND $3 ORDER BY l.date, l.id`,
      [accountId, from, to],
    );
    const matches = await client.query<
      StoredMatch & { accountId: number; lines: { id: number; date: string; amount: number }[] }
    >(
      `SELECT m.id, m.account_id AS "accountId", m.batch_date AS date, m.pg, m.utr,
                m.settlement_date AS "settlementDate", 'manual' AS how, m.note,
                to_char(m.matched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "matchedAt",
                coalesce((SELECT json_agg(json_build_object('id', l.id, 'date', l.date, 'amount', l.amount)
                                          ORDER BY l.id)
                            FROM desk.recon_match_lines ml JOIN desk.bank_lines l ON l.id = ml.line_id
                           WHERE ml.match_id = m.id AND m.account_id = $1), '[]') AS lines
           FROM desk.recon_matches m ORDER BY m.id`,
      [accountId],
    );
    const apart = await client.query<{ k: string }>(
      `SELECT a.batch_key || '#' || a.line_id AS k FROM desk.recon_apart a
           JOIN desk.bank_lines l ON l.id = a.line_id WHERE l.account_id = $1`,
      [accountId],
    );
    const statements = await client.query<DeskStatement>(
      `SELECT s.file_name AS "fileName", s.layout,
                to_char(s.imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "importedAt",
                min(l.date) AS "from", max(l.date) AS "to"
           FROM desk.bank_statements s JOIN desk.bank_lines l ON l.statement_id = s.id
          WHERE s.account_id = $1
          GROUP BY s.id HAVING min(l.date) <= $3 AND max(l.date) >= $2 ORDER BY s.id`,
      [accountId, from, to],
    );
    return {
      statements: statements.rows,
      settings: settingsOf(settings.rows[0]?.value ?? null),
      lines: lines.rows,
      // Other accounts' matches count only by their batch.
      matches: matches.rows.filter((m) => m.accountId === accountId),
      matchedBatches: matches.rows.map((m) => ({
        id: m.id,
        date: m.date,
        pg: m.pg,
        utr: m.utr,
        settlementDate: m.settlementDate,
      })),
      apart: new Set(apart.rows.map((r) => r.k)),
    };
  });
}

export function createDeskReconciliation(pool: pg.Pool, consoleName: string) {
  async function query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw deskErrorOf(e);
    }
  }

  return {
    async accounts(): Promise<BankAccount[]> {
      return (await query<AccountRow>('SELECT id, name, mapping FROM desk.bank_accounts ORDER BY name')).map(toAccount);
    },

    async account(name: string): Promise<BankAccount | null> {
      const [row] = await query<AccountRow>('SELECT id, name, mapping FROM desk.bank_accounts WHERE name = $1', [name]);
      return row ? toAccount(row) : null;
    },

    async settings(): Promise<ReconSettings> {
      const [row] = await query<{ value: unknown }>("SELECT value FROM desk.recon_settings WHERE key = 'matching'");
      return settingsOf(row?.value ?? null);
    },

    /** Lines dated from..to and the matches by hand: one REPEATABLE READ transaction, so they agree. */
    snapshot: (accountId: number, from: string, to: string) => snapshotOf(pool, accountId, from, to),

    async importStatement(
      account: string,
      mapping: ColumnMapping,
      file: { fileName: string; digest: string; layout: string; bad: number },
      lines: readonly (StatementLineIn & { lineKey: string })[],
    ): Promise<{ accountId: number; added: number; duplicates: number; journalSeq: number }> {
      const [row] = await query<{ r: { accountId: number; added: number; duplicates: number; journalSeq: number } }>(
        'SELECT desk.import_statement($1, $2, $3, $4, $5) AS r',
        [account, JSON.stringify(mapping), JSON.stringify(file), JSON.stringify(lines), consoleName],
      );
      return row!.r;
    },

    /** The credits among these statement lines of the account, by id: a match's difference, known before it is asked. */
    async credits(account: string, lineIds: readonly number[]): Promise<Map<number, number>> {
      const rows = await query<{ id: number; amount: number }>(
        `SELECT l.id, l.amount FROM desk.bank_lines l JOIN desk.bank_accounts a ON a.id = l.account_id
          WHERE a.name = $1 AND l.id = ANY ($2) AND l.amount > 0`,
        [account, lineIds],
      );
      return new Map(rows.map((r) => [r.id, r.amount]));
    },

    async matchByHand(
      account: string,
      batch: BatchKey & { settled: number },
      lineIds: readonly number[],
      note: string,
    ): Promise<number> {
      const [row] = await query<{ r: { matchId: number } }>('SELECT desk.match_by_hand($1, $2, $3, $4, $5) AS r', [
        account,
        JSON.stringify(batch),
        lineIds,
        note,
        consoleName,
      ]);
      return row!.r.matchId;
    },

    /** A match by hand by its id, or an automatic one by its batch and credits. */
    async unmatch(account: string, match: { id: number } | ProposedMatch, note: string): Promise<number> {
      const auto = 'batch' in match ? match : null;
      const [row] = await query<{ seq: number }>('SELECT desk.unmatch($1, $2, $3, $4, $5, $6, $7) AS seq', [
        account,
        auto ? null : (match as { id: number }).id,
        auto ? JSON.stringify(auto.batch) : null,
        auto ? auto.lineIds : null,
        auto ? auto.how : 'manual',
        note,
        consoleName,
      ]);
      return row!.seq;
    },

    /**
     * The published batches dated from..to or on one of `dates` (the batches of matches made by hand outside the
     * period), in the cache's order and shape.
     */
    async batches(from: string, to: string, dates: readonly string[] = [], pg: string | null = null) {
      return query<BatchRow>(
        `SELECT date, pg, utr, settlement_date AS "settlementDate", records, amount, fees, taxes, subvention, settled,
                exceptions, refunds, chargebacks
           FROM desk.settlement_batches
          WHERE (date BETWEEN $1 AND $2 OR date = ANY ($3::date[])) AND ($4::text IS NULL OR pg = $4)
          ORDER BY date, settlement_date, pg, utr`,
        [from, to, dates, pg],
      );
    },

    /** The gateways of every published batch: the matcher's hints, as the cache's rollup gives them. */
    async gateways(): Promise<string[]> {
      return (await query<{ pg: string }>('SELECT DISTINCT pg FROM desk.settlement_batches ORDER BY pg')).map(
        (r) => r.pg,
      );
    },

    /**
     * A synced date's batches, replacing the desk's copy of the date, or of `gateways` only (the ones this console
     * holds whole for the date; null: every gateway); the number written (0: already these).
     */
    async publishBatches(
      date: string,
      batches: readonly BatchRow[],
      gateways: readonly string[] | null,
    ): Promise<number> {
      const [row] = await query<{ n: number }>('SELECT desk.publish_batches($1, $2, $3, $4) AS n', [
        date,
        JSON.stringify(batches),
        consoleName,
        gateways,
      ]);
      return row!.n;
    },

    /** The journal entry's sequence number, or null when the settings were already these. */
    async saveSettings(settings: ReconSettings): Promise<number | null> {
      const [row] = await query<{ seq: number | null }>('SELECT desk.set_match_settings($1, $2) AS seq', [
        JSON.stringify(reconSettings.parse(settings)),
        consoleName,
      ]);
      return row!.seq;
    },
  };
}
export type DeskReconciliation = ReturnType<typeof createDeskReconciliation>;
