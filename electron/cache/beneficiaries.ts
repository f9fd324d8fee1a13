/**
 * Beneficiaries as last fetched from the API, for lists and search that work offline. Upserted by id on
 * every fetch; fields the contract does not name are kept as JSON.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { beneficiary, type Beneficiary } from '../../shared/api/payouts';
import type { BankDetailChange, CachedBeneficiary } from '../../shared/beneficiaries';
import { containsPattern, decodeCursor, encodeCursor } from './cursor';
import { prepareAll } from './statements';
import { parseUnnamedFields, unnamedFieldsJson } from './unnamed-fields';

export type { CachedBeneficiary };

const KNOWN = new Set(Object.keys(beneficiary.shape));
const COLUMNS = 'beneficiary_id, name, vpa, account_number, ifsc, phone, email, address, extra, fetched_at';
/** The stored columns and when the bank details last changed (null: never, as far as this cache saw). */
const READ = `${COLUMNS}, (SELECT max(changed_at) FROM beneficiary_changes c
  WHERE c.beneficiary_id = beneficiaries.beneficiary_id) AS changed_at`;

/** The list's filter: only changed payees, and a search in name, id, UPI address, account, email or phone. */
const FILTER = `(:changed = 0 OR beneficiary_id IN (SELECT beneficiary_id FROM beneficiary_changes))
           AND (:search IS NULL OR name LIKE :search ESCAPE '\\' OR beneficiary_id LIKE :search ESCAPE '\\'
                OR vpa LIKE :search ESCAPE '\\' OR account_number LIKE :search ESCAPE '\\'
                OR email LIKE :search ESCAPE '\\' OR phone LIKE :search ESCAPE '\\')`;

const SQL = {
  upsert: `INSERT INTO beneficiaries (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (beneficiary_id) DO UPDATE SET name = excluded.name, vpa = excluded.vpa,
             account_number = excluded.account_number, ifsc = excluded.ifsc, phone = excluded.phone,
             email = excluded.email, address = excluded.address, extra = excluded.extra,
             fetched_at = excluded.fetched_at`,
  get: `SELECT ${READ} FROM beneficiaries WHERE beneficiary_id = ?`,
  list: `SELECT ${READ} FROM beneficiaries
         WHERE ${FILTER}
           AND (:kId IS NULL OR (name COLLATE NOCASE, beneficiary_id) > (:kName, :kId))
         ORDER BY name COLLATE NOCASE, beneficiary_id LIMIT :limit`,
  every: `SELECT ${READ} FROM beneficiaries WHERE ${FILTER} ORDER BY name COLLATE NOCASE, beneficiary_id`,
  matches: `SELECT ${READ} FROM beneficiaries
            WHERE (:vpa IS NOT NULL AND vpa = :vpa COLLATE NOCASE)
               OR (:account IS NOT NULL AND account_number = :account AND ifsc = :ifsc COLLATE NOCASE)
            ORDER BY name COLLATE NOCASE, beneficiary_id LIMIT 20`,
  addChange: `INSERT INTO beneficiary_changes (beneficiary_id, changed_at, old_account_number, old_ifsc, old_vpa,
                new_account_number, new_ifsc, new_vpa) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  changes: `SELECT changed_at AS changedAt, old_account_number, old_ifsc, old_vpa, new_account_number, new_ifsc, new_vpa
            FROM beneficiary_changes WHERE beneficiary_id = ? ORDER BY changed_at DESC, id DESC`,
} as const;

function filterParams(filter: { search?: string; changed?: boolean }) {
  const search = filter.search?.trim() ? containsPattern(filter.search.trim()) : null;
  return { search, changed: filter.changed ? 1 : 0 };
}

type Row = Omit<CachedBeneficiary, 'extra' | 'fetchedAt' | 'bankDetailsChangedAt'> & {
  extra: string | null;
  fetched_at: string;
  changed_at: string | null;
};

/** The API sends "" as often as null for a field it has no value for; IFSC and UPI addresses have no case. */
function bankDetail(field: 'account_number' | 'ifsc' | 'vpa', value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  return field === 'account_number' ? text : text.toUpperCase();
}
const BANK_FIELDS = ['account_number', 'ifsc', 'vpa'] as const;

interface ChangeRow {
  changedAt: string;
  old_account_number: string | null;
  old_ifsc: string | null;
  old_vpa: string | null;
  new_account_number: string | null;
  new_ifsc: string | null;
  new_vpa: string | null;
}

const cursorShape = z.tuple([z.string(), z.string()]);

function fromRow({ extra, fetched_at, changed_at, ...rest }: Row): CachedBeneficiary {
  return {
    ...rest,
    extra: parseUnnamedFields(extra),
    fetchedAt: fetched_at,
    bankDetailsChangedAt: changed_at,
  };
}

export function createBeneficiariesRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  const get = (id: string): CachedBeneficiary | null => {
    const row = sql.get.get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  };
  const upsert = db.transaction((b: Beneficiary & { beneficiary_id: string }): CachedBeneficiary => {
    const before = get(b.beneficiary_id);
    const at = now().toISOString();
    // A payee whose bank account or UPI address changed at the service is a fraud signal: the old values are kept.
    if (before && BANK_FIELDS.some((f) => bankDetail(f, before[f]) !== bankDetail(f, b[f]))) {
      sql.addChange.run(
        b.beneficiary_id,
        at,
        before.account_number,
        before.ifsc,
        before.vpa,
        b.account_number ?? null,
        b.ifsc ?? null,
        b.vpa ?? null,
      );
    }
    sql.upsert.run(
      b.beneficiary_id,
      b.name,
      b.vpa ?? null,
      b.account_number ?? null,
      b.ifsc ?? null,
      b.phone ?? null,
      b.email ?? null,
      b.address ?? null,
      unnamedFieldsJson(b, KNOWN),
      at,
    );
    return get(b.beneficiary_id)!;
  });
  return {
    /**
     * Stores the beneficiary as the API answered it (the id is the one asked for when it sent none); bank details
     * that differ from the cached ones are kept as a change first.
     */
    upsert: (b: Beneficiary & { beneficiary_id: string }): CachedBeneficiary => upsert(b),
    get,
    /** Every change of this beneficiary's bank details the cache saw, newest first. */
    changes: (id: string): BankDetailChange[] =>
      (sql.changes.all(id) as ChangeRow[]).map((r) => ({
        changedAt: r.changedAt,
        before: { account_number: r.old_account_number, ifsc: r.old_ifsc, vpa: r.old_vpa },
        after: { account_number: r.new_account_number, ifsc: r.new_ifsc, vpa: r.new_vpa },
      })),
    /** Every beneficiary in the list's filter (all without one) by name, read as they are used: exports. */
    *every(filter: { search?: string; changed?: boolean } = {}): Generator<CachedBeneficiary> {
      for (const row of sql.every.iterate(filterParams(filter)) as Iterable<Row>) yield fromRow(row);
    },
    /** Beneficiaries already paying into the same UPI address, or the same bank account at the same branch. */
    matches(m: { account_number?: string; ifsc?: string; vpa?: string }): CachedBeneficiary[] {
      const text = (v: string | undefined) => (v?.trim() ? v.trim() : null);
      const account = text(m.account_number);
      const ifsc = text(m.ifsc);
      return (sql.matches.all({ vpa: text(m.vpa), account: account && ifsc ? account : null, ifsc }) as Row[]).map(
        fromRow,
      );
    },
    /** By name (any case), then id; `search` matches part of the name, id, UPI address, account, email or phone. */
    list(options: { search?: string; after?: string; limit?: number; changed?: boolean } = {}) {
      const limit = options.limit ?? 100;
      const [kName, kId] = options.after === undefined ? [null, null] : decodeCursor(options.after, cursorShape);
      const rows = (sql.list.all({ ...filterParams(options), kName, kId, limit: limit + 1 }) as Row[]).map(fromRow);
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      const last = page.at(-1);
      return { rows: page, nextCursor: more && last ? encodeCursor([last.name, last.beneficiary_id]) : null };
    },
  };
}
export type BeneficiariesRepository = ReturnType<typeof createBeneficiariesRepository>;
