/**
 * Settlement batches, bank statements and their matches, in the profile's cache.
 *
 * Batches are kept by the ingest's rollup deltas (settlement-rollup.ts) in `settlement_batches`: reads of batches
 * never touch the records; the drill-down reads one batch's records, within its date's rowid range.
 */
import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { StatementLineIn } from '../../shared/bank-statement';
import { columnMapping, type ColumnMapping } from '../../shared/bank-statement';
import {
  DEFAULT_RECON_SETTINGS,
  batchKeyText,
  reconSettings,
  type BatchKey,
  type MatchHow,
  type ReconSettings,
  type ReconStatement,
} from '../../shared/bank-matching';

/** What an import keeps of its completeness proof: whether it held, and the sentence that says so. */
export interface StatementProof {
  holds: boolean | null;
  sentence: string;
}
import { tallyLedgers, type TallyLedgers } from '../../shared/tally';
import { idRange } from './settlement-ids';
import { exactNumber, prepareAll } from './statements';

/** An account's lines dated in [from, to], each with its match if any. */
const LINES_OF_PERIOD = `SELECT l.id, l.date, l.value_date AS valueDate, l.narration, l.reference, l.amount, l.balance,
                 l.rail, l.utr, l.row_number AS rowNumber, m.id AS matchId
          FROM bank_lines l LEFT JOIN recon_match_lines ml ON ml.line_id = l.id LEFT JOIN recon_matches m ON m.id = ml.match_id
          WHERE l.account_id = :account AND l.date BETWEEN :from AND :to`;

const SQL = {
  batches: `SELECT date, pg, utr, settlement_date AS settlementDate, records, amount, fees, taxes, subvention,
                   settled, exceptions, refunds, chargebacks
            FROM settlement_batches WHERE date BETWEEN :from AND :to AND (:pg IS NULL OR pg = :pg)
            ORDER BY date, settlement_date, pg, utr`,
  batchRecords: `SELECT id, pg_transaction_id AS pgTransactionId, order_id AS orderId, payment_mode AS paymentMode,
                        amount, mer_service_fee AS fee, mer_service_tax AS tax,
                        merchant_subvention_amount AS subvention, settled_amount AS settled,
                        exception_flags AS exceptionFlags
                 FROM settlements
                 WHERE id BETWEEN :lo AND :hi AND vanished_at IS NULL AND pg = :pg
                   AND coalesce(utr, '') = :utr AND settlement_date = :settlementDate
                 ORDER BY id LIMIT :limit OFFSET :offset`,
  gstOfBatches: `SELECT date, pg, coalesce(utr, '') AS utr, settlement_date AS settlementDate, sum(cgst) AS cgst,
                         sum(sgst) AS sgst, sum(igst) AS igst
                  FROM settlements WHERE id BETWEEN :lo AND :hi AND vanished_at IS NULL
                  GROUP BY date, pg, coalesce(utr, ''), settlement_date`,
  accountByName: `SELECT id, name, gateways, mapping FROM bank_accounts WHERE name = ?`,
  accountById: `SELECT id, name, gateways, mapping FROM bank_accounts WHERE id = ?`,
  accounts: `SELECT id, name, gateways, mapping FROM bank_accounts ORDER BY name`,
  addAccount: `INSERT INTO bank_accounts (name, created_at) VALUES (?, ?)`,
  setMapping: `UPDATE bank_accounts SET mapping = ? WHERE id = ?`,
  setGateways: `UPDATE bank_accounts SET gateways = ? WHERE id = ?`,
  addImport: `INSERT INTO bank_statement_imports (account_id, file_name, digest, layout, imported_at, lines, added, bad,
                                                 proof)
              VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  statementsOfPeriod: `SELECT i.file_name AS fileName, i.layout, i.imported_at AS importedAt, i.proof,
                              min(l.date) AS "from", max(l.date) AS "to"
                       FROM bank_statement_imports i JOIN bank_lines l ON l.import_id = i.id
                       WHERE i.account_id = :account
                       GROUP BY i.id HAVING min(l.date) <= :to AND max(l.date) >= :from
                       ORDER BY i.id`,
  setImportAdded: `UPDATE bank_statement_imports SET added = ? WHERE id = ?`,
  addLine: `INSERT INTO bank_lines (account_id, line_key, date, value_date, narration, reference, amount, balance,
                                    rail, utr, import_id, row_number)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, line_key) DO NOTHING`,
  lines: `${LINES_OF_PERIOD} ORDER BY l.date, l.id`,
  credits: `${LINES_OF_PERIOD} AND l.amount > 0 ORDER BY l.date, l.id`,
  linesOfMatch: `SELECT l.id, l.date, l.amount FROM recon_match_lines ml JOIN bank_lines l ON l.id = ml.line_id
                 WHERE ml.match_id = ? ORDER BY l.id`,
  matches: `SELECT id, batch_date AS date, pg, utr, settlement_date AS settlementDate, how, note, reason,
                   matched_at AS matchedAt
            FROM recon_matches WHERE account_id = ? ORDER BY id`,
  matchOfBatch: `SELECT id, how FROM recon_matches WHERE batch_date = ? AND pg = ? AND utr = ? AND settlement_date = ?`,
  matchOfLine: `SELECT match_id AS id FROM recon_match_lines WHERE line_id = ?`,
  addMatch: `INSERT INTO recon_matches (account_id, batch_date, pg, utr, settlement_date, how, note, reason, matched_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  addMatchLine: `INSERT INTO recon_match_lines (match_id, line_id) VALUES (?, ?)`,
  dropMatch: `DELETE FROM recon_matches WHERE id = ?`,
  rebindMatch: `UPDATE recon_matches SET utr = ? WHERE id = ?`,
  dropAutoMatches: `DELETE FROM recon_matches WHERE account_id = :account AND how <> 'manual'
                      AND (batch_date BETWEEN :from AND :to
                           OR id IN (SELECT ml.match_id FROM recon_match_lines ml JOIN bank_lines l ON l.id = ml.line_id
                                     WHERE l.date BETWEEN :from AND :creditsTo))`,
  addApart: `INSERT INTO recon_apart (batch_key, line_id, note, at) VALUES (?, ?, ?, ?)
             ON CONFLICT (batch_key, line_id) DO UPDATE SET note = excluded.note, at = excluded.at`,
  apart: `SELECT a.batch_key AS batchKey, a.line_id AS lineId FROM recon_apart a JOIN bank_lines l ON l.id = a.line_id
          WHERE l.account_id = ?`,
  getSettings: `SELECT value FROM recon_settings WHERE key = 'matching'`,
  putSettings: `INSERT INTO recon_settings (key, value) VALUES ('matching', ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  getTallyLedgers: `SELECT value FROM recon_settings WHERE key = 'tally'`,
  putTallyLedgers: `INSERT INTO recon_settings (key, value) VALUES ('tally', ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  gateways: `SELECT DISTINCT pg FROM settlement_rollup`,
  creditsOfBatches: `SELECT m.batch_date AS date, m.pg, m.utr, m.settlement_date AS settlementDate, m.how,
                            a.name AS account, count(l.id) AS lines, coalesce(sum(l.amount), 0) AS credited,
                            group_concat(l.date, ', ') AS creditDates
                     FROM recon_matches m JOIN bank_accounts a ON a.id = m.account_id
                       LEFT JOIN recon_match_lines ml ON ml.match_id = m.id LEFT JOIN bank_lines l ON l.id = ml.line_id
                     WHERE m.batch_date BETWEEN :from AND :to
                     GROUP BY m.id`,
} as const;

export interface BatchRow extends BatchKey {
  records: number;
  amount: number;
  fees: number;
  taxes: number;
  subvention: number;
  settled: number;
  exceptions: number;
  /**
   * The refunds and the chargebacks netted out of `amount` (signed, `lineKind`); sales are the amount less both.
   * Null on a desk's copy published by a console before desk migration 12, until the date is published again.
   */
  refunds: number | null;
  chargebacks: number | null;
}

/** The bank credit a batch was matched to (in whichever account), as the settlement workbook shows it. */
export interface BatchCredit extends BatchKey {
  how: MatchHow | 'manual';
  account: string;
  lines: number;
  /** The matched credits' sum, paise. */
  credited: number;
  /** The credits' statement dates, comma-separated. */
  creditDates: string | null;
}

export interface BankAccount {
  id: number;
  name: string;
  /** Gateway codes settling into this account; null: every gateway. */
  gateways: string[] | null;
  mapping: ColumnMapping | null;
}

export interface StoredLine {
  id: number;
  date: string;
  valueDate: string | null;
  narration: string;
  reference: string | null;
  amount: number;
  balance: number | null;
  rail: string | null;
  utr: string | null;
  rowNumber: number;
  matchId: number | null;
}

export interface StoredMatch extends BatchKey {
  id: number;
  how: MatchHow | 'manual';
  note: string | null;
  /** Why a match by hand was made with a difference (credited less the batch); null when it had none or was automatic. */
  reason: string | null;
  matchedAt: string;
}

function parseJson<T>(text: string | null, check: (v: unknown) => T | null): T | null {
  if (text === null) return null;
  try {
    return check(JSON.parse(text));
  } catch {
    return null;
  }
}

function account(row: { id: number; name: string; gateways: string | null; mapping: string | null }): BankAccount {
  return {
    id: row.id,
    name: row.name,
    gateways: parseJson(row.gateways, (v) => (Array.isArray(v) && v.every((g) => typeof g === 'string') ? v : null)),
    mapping: parseJson(row.mapping, (v) => {
      const p = columnMapping.safeParse(v);
      return p.success ? p.data : null;
    }),
  };
}

/** A statement line's identity: its content and its ordinal among identical lines of the same file. */
export function lineKey(l: StatementLineIn, ordinal: number): string {
  return createHash('sha256')
    .update(JSON.stringify([l.date, l.valueDate, l.narration, l.reference, l.amount, l.balance, ordinal]))
    .digest('hex');
}

/** A file's lines with their keys (lineKey), in order: what stores them, here or on a desk, adds each key once. */
export function withLineKeys<L extends StatementLineIn>(lines: readonly L[]): (L & { lineKey: string })[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const content = lineKey(l, 0);
    const ordinal = seen.get(content) ?? 0;
    seen.set(content, ordinal + 1);
    return { ...l, lineKey: ordinal === 0 ? content : lineKey(l, ordinal) };
  });
}

export function createReconciliationRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  sql.batches.safeIntegers();
  sql.gstOfBatches.safeIntegers();
  const num = (v: number | bigint | null, what: string) => exactNumber(v, what);

  function batches(from: string, to: string, pg: string | null = null): BatchRow[] {
    return (sql.batches.all({ from, to, pg }) as Record<string, number | bigint | string>[]).map((r) => ({
      date: r['date'] as string,
      pg: r['pg'] as string,
      utr: r['utr'] as string,
      settlementDate: r['settlementDate'] as string,
      records: num(r['records'] as bigint, 'records'),
      amount: num(r['amount'] as bigint, 'amount'),
      fees: num(r['fees'] as bigint, 'fees'),
      taxes: num(r['taxes'] as bigint, 'taxes'),
      subvention: num(r['subvention'] as bigint, 'subvention'),
      settled: num(r['settled'] as bigint, 'settled'),
      exceptions: num(r['exceptions'] as bigint, 'exceptions'),
      refunds: num(r['refunds'] as bigint, 'refunds'),
      chargebacks: num(r['chargebacks'] as bigint, 'chargebacks'),
    }));
  }

  return {
    batches,
    batchRecords(key: BatchKey, offset: number, limit: number) {
      const { lo, hi } = idRange(key.date, key.date);
      return sql.batchRecords.all({
        lo,
        hi,
        pg: key.pg,
        utr: key.utr,
        settlementDate: key.settlementDate,
        limit,
        offset,
      }) as {
        id: number;
        pgTransactionId: string;
        orderId: string | null;
        paymentMode: string;
        amount: number;
        fee: number;
        tax: number;
        subvention: number;
        settled: number;
        exceptionFlags: number;
      }[];
    },
    /**
     * Each batch's CGST, SGST and IGST (paise) by batchKeyText, summed from its records: the batches table keeps
     * only their total, and a Tally voucher debits each component to its own ledger.
     */
    gstOfBatches(from: string, to: string): Map<string, { cgst: number; sgst: number; igst: number }> {
      const rows = sql.gstOfBatches.all(idRange(from, to)) as (BatchKey & Record<'cgst' | 'sgst' | 'igst', bigint>)[];
      return new Map(
        rows.map((r) => [
          batchKeyText(r),
          { cgst: num(r.cgst, 'cgst'), sgst: num(r.sgst, 'sgst'), igst: num(r.igst, 'igst') },
        ]),
      );
    },
    gateways: () => (sql.gateways.all() as { pg: string }[]).map((r) => r.pg),
    /** Every match of the period's batches with its account and credited sum, by batch (batchKeyText). */
    creditsOfBatches(from: string, to: string): Map<string, BatchCredit> {
      const rows = sql.creditsOfBatches.all({ from, to }) as BatchCredit[];
      return new Map(rows.map((r) => [batchKeyText(r), { ...r, credited: num(r.credited, 'credited') }]));
    },

    accounts: () => (sql.accounts.all() as Parameters<typeof account>[0][]).map(account),
    account(name: string): BankAccount | null {
      const row = sql.accountByName.get(name) as Parameters<typeof account>[0] | undefined;
      return row ? account(row) : null;
    },
    accountById(id: number): BankAccount | null {
      const row = sql.accountById.get(id) as Parameters<typeof account>[0] | undefined;
      return row ? account(row) : null;
    },
    ensureAccount(name: string): BankAccount {
      const found = sql.accountByName.get(name) as Parameters<typeof account>[0] | undefined;
      if (found) return account(found);
      const id = Number(sql.addAccount.run(name, now().toISOString()).lastInsertRowid);
      return { id, name, gateways: null, mapping: null };
    },
    setMapping(accountId: number, mapping: ColumnMapping): void {
      sql.setMapping.run(JSON.stringify(columnMapping.parse(mapping)), accountId);
    },
    setGateways(accountId: number, gateways: string[] | null): void {
      sql.setGateways.run(gateways === null ? null : JSON.stringify(gateways), accountId);
    },

    /** Stores a file's good lines; lines already stored for the account (by content) are not added again. */
    addStatement(
      accountId: number,
      file: { fileName: string; digest: string; layout: string; bad: number; proof: StatementProof },
      lines: readonly StatementLineIn[],
    ): { importId: number; added: number; duplicates: number } {
      return db.transaction(() => {
        const importId = Number(
          sql.addImport.run(
            accountId,
            file.fileName,
            file.digest,
            file.layout,
            now().toISOString(),
            lines.length,
            file.bad,
            JSON.stringify(file.proof),
          ).lastInsertRowid,
        );
        let added = 0;
        for (const l of withLineKeys(lines)) {
          const r = sql.addLine.run(
            accountId,
            l.lineKey,
            l.date,
            l.valueDate,
            l.narration,
            l.reference,
            l.amount,
            l.balance,
            l.rail,
            l.utr,
            importId,
            l.rowNumber,
          );
          added += r.changes;
        }
        sql.setImportAdded.run(added, importId);
        return { importId, added, duplicates: lines.length - added };
      })();
    },
    lines: (accountId: number, from: string, to: string) =>
      sql.lines.all({ account: accountId, from, to }) as StoredLine[],
    /** The credits alone: what matching and the report read (a busy account's statement is mostly debits). */
    credits: (accountId: number, from: string, to: string) =>
      sql.credits.all({ account: accountId, from, to }) as StoredLine[],

    matches: (accountId: number) => sql.matches.all(accountId) as StoredMatch[],
    linesOfMatch: (matchId: number) => sql.linesOfMatch.all(matchId) as { id: number; date: string; amount: number }[],
    /** The statements whose lines (the ones they added) fall in the period, with each one's completeness proof. */
    statements(accountId: number, from: string, to: string): ReconStatement[] {
      const rows = sql.statementsOfPeriod.all({ account: accountId, from, to }) as (Omit<
        ReconStatement,
        'holds' | 'sentence'
      > & { proof: string | null })[];
      return rows.map(({ proof, ...r }) => {
        const p = proof === null ? null : (JSON.parse(proof) as StatementProof);
        return {
          ...r,
          holds: p?.holds ?? null,
          sentence: p?.sentence ?? 'Imported before the console checked statements for completeness.',
        };
      });
    },
    matchOfBatch(key: BatchKey): { id: number; how: string } | null {
      return (
        (sql.matchOfBatch.get(key.date, key.pg, key.utr, key.settlementDate) as { id: number; how: string }) ?? null
      );
    },
    matchOfLine: (lineId: number) => (sql.matchOfLine.get(lineId) as { id: number } | undefined)?.id ?? null,
    /** Replaces the automatic matches of a period with new ones, in one transaction with the caller's reads. */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    dropAutoMatches(accountId: number, from: string, to: string, creditsTo: string): void {
      sql.dropAutoMatches.run({ account: accountId, from, to, creditsTo });
    },
    addMatch(
      accountId: number,
      key: BatchKey,
      how: MatchHow | 'manual',
      lineIds: readonly number[],
      note: string | null,
      reason: string | null = null,
    ) {
      const id = Number(
        sql.addMatch.run(
          accountId,
          key.date,
          key.pg,
          key.utr,
          key.settlementDate,
          how,
          note,
          reason,
          now().toISOString(),
        ).lastInsertRowid,
      );
      for (const l of lineIds) sql.addMatchLine.run(id, l);
      return id;
    },
    dropMatch: (id: number) => void sql.dropMatch.run(id),
    rebindMatch: (id: number, utr: string) => void sql.rebindMatch.run(utr, id),
    keepApart(key: BatchKey, lineIds: readonly number[], note: string): void {
      for (const l of lineIds) sql.addApart.run(batchKeyText(key), l, note, now().toISOString());
    },
    apart: (accountId: number) =>
      new Set(
        (sql.apart.all(accountId) as { batchKey: string; lineId: number }[]).map((a) => `${a.batchKey}#${a.lineId}`),
      ),

    settings(): ReconSettings {
      const row = sql.getSettings.get() as { value: string } | undefined;
      return (
        parseJson(row?.value ?? null, (v) => {
          // Settings stored before a setting existed take its default.
          const p = reconSettings.safeParse({ ...DEFAULT_RECON_SETTINGS, ...(v as object) });
          return p.success ? p.data : null;
        }) ?? DEFAULT_RECON_SETTINGS
      );
    },
    putSettings(settings: ReconSettings): ReconSettings {
      const checked = reconSettings.parse(settings);
      sql.putSettings.run(JSON.stringify(checked));
      return checked;
    },
    tallyLedgers(): TallyLedgers {
      const row = sql.getTallyLedgers.get() as { value: string } | undefined;
      return (
        parseJson(row?.value ?? null, (v) => {
          const p = tallyLedgers.safeParse(v);
          return p.success ? p.data : null;
        }) ?? {}
      );
    },
    putTallyLedgers(ledgers: TallyLedgers): TallyLedgers {
      const checked = tallyLedgers.parse(ledgers);
      sql.putTallyLedgers.run(JSON.stringify(checked));
      return checked;
    },
  };
}

export type ReconciliationRepository = ReturnType<typeof createReconciliationRepository>;
