/**
 * Beneficiaries as last fetched from the API, for lists and search that work offline. Upserted by id on
 * every fetch; fields the contract does not name are kept as JSON.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { beneficiary, type Beneficiary } from '../../shared/api/payouts';
import type { CachedBeneficiary } from '../../shared/beneficiaries';
import { containsPattern, decodeCursor, encodeCursor } from './cursor';
import { prepareAll } from './statements';
import { parseUnnamedFields, unnamedFieldsJson } from './unnamed-fields';

export type { CachedBeneficiary };

const KNOWN = new Set(Object.keys(beneficiary.shape));
const COLUMNS = 'beneficiary_id, name, vpa, account_number, ifsc, phone, email, address, extra, fetched_at';

const SQL = {
  upsert: `INSERT INTO beneficiaries (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (beneficiary_id) DO UPDATE SET name = excluded.name, vpa = excluded.vpa,
             account_number = excluded.account_number, ifsc = excluded.ifsc, phone = excluded.phone,
             email = excluded.email, address = excluded.address, extra = excluded.extra,
             fetched_at = excluded.fetched_at`,
  get: `SELECT ${COLUMNS} FROM beneficiaries WHERE beneficiary_id = ?`,
  list: `SELECT ${COLUMNS} FROM beneficiaries
         WHERE (:search IS NULL OR name LIKE :search ESCAPE '\\' OR beneficiary_id LIKE :search ESCAPE '\\'
                OR vpa LIKE :search ESCAPE '\\' OR account_number LIKE :search ESCAPE '\\'
                OR email LIKE :search ESCAPE '\\' OR phone LIKE :search ESCAPE '\\')
           AND (:kId IS NULL OR (name COLLATE NOCASE, beneficiary_id) > (:kName, :kId))
         ORDER BY name COLLATE NOCASE, beneficiary_id LIMIT :limit`,
  every: `SELECT ${COLUMNS} FROM beneficiaries ORDER BY name COLLATE NOCASE, beneficiary_id`,
  matches: `SELECT ${COLUMNS} FROM beneficiaries
            WHERE (:vpa IS NOT NULL AND vpa = :vpa COLLATE NOCASE)
               OR (:account IS NOT NULL AND account_number = :account AND ifsc = :ifsc COLLATE NOCASE)
            ORDER BY name COLLATE NOCASE, beneficiary_id LIMIT 20`,
} as const;

type Row = Omit<CachedBeneficiary, 'extra' | 'fetchedAt'> & { extra: string | null; fetched_at: string };

const cursorShape = z.tuple([z.string(), z.string()]);

function fromRow({ extra, fetched_at, ...rest }: Row): CachedBeneficiary {
  return {
    ...rest,
    extra: parseUnnamedFields(extra),
    fetchedAt: fetched_at,
  };
}

export function createBeneficiariesRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);
  const get = (id: string): CachedBeneficiary | null => {
    const row = sql.get.get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  };
  return {
    /** Stores the beneficiary as the API answered it (the id is the one asked for when it sent none). */
    upsert(b: Beneficiary & { beneficiary_id: string }): CachedBeneficiary {
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
        now().toISOString(),
      );
      return get(b.beneficiary_id)!;
    },
    get,
    /** Every beneficiary by name, read as they are used: exports. */
    *every(): Generator<CachedBeneficiary> {
      for (const row of sql.every.iterate() as Iterable<Row>) yield fromRow(row);
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
    list(options: { search?: string; after?: string; limit?: number } = {}) {
      const limit = options.limit ?? 100;
      const [kName, kId] = options.after === undefined ? [null, null] : decodeCursor(options.after, cursorShape);
      const search = options.search?.trim() ? containsPattern(options.search.trim()) : null;
      const rows = (sql.list.all({ search, kName, kId, limit: limit + 1 }) as Row[]).map(fromRow);
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      const last = page.at(-1);
      return { rows: page, nextCursor: more && last ? encodeCursor([last.name, last.beneficiary_id]) : null };
    },
  };
}
export type BeneficiariesRepository = ReturnType<typeof createBeneficiariesRepository>;
