/**
 * Payout accounts per gateway and their balances over time. Every accounts or balance call adds one
 * snapshot per account (history kept, for trends); a gateway that answered with its own error keeps
 * that error until it answers again.
 */
import type { Database } from 'better-sqlite3';
import type { Balance, GatewayAccounts } from '../../shared/api/payouts';
import { prepareAll } from './statements';

export interface CachedAccount {
  pg: string;
  accountNumber: string;
  ifscCode: string | null;
  accountType: string | null;
  currency: string | null;
  extra: Record<string, unknown> | null;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** Amounts in integer paise; `accountNumber` is '' when the balance call named no account. */
export interface BalanceSnapshot {
  id: number;
  pg: string;
  accountNumber: string;
  takenAt: string;
  source: 'accounts' | 'balance';
  availableBalance: number;
  accountBalance: number | null;
  minimumBalance: number | null;
  holdFund: number | null;
  overdraft: number | null;
}

export interface GatewayError {
  pg: string;
  code: string | null;
  message: string;
  at: string;
}

const KNOWN = new Set([
  'account_number',
  'ifsc_code',
  'account_type',
  'currency',
  'available_balance',
  'account_balance',
  'minimum_balance',
  'hold_fund',
  'overdraft',
]);

const SNAPSHOT = `id, pg, account_number AS accountNumber, taken_at AS takenAt, source,
  available_balance AS availableBalance, account_balance AS accountBalance, minimum_balance AS minimumBalance,
  hold_fund AS holdFund, overdraft`;

const SQL = {
  upsertAccount: `INSERT INTO payout_accounts (pg, account_number, ifsc_code, account_type, currency, extra, first_seen_at, last_seen_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                  ON CONFLICT (pg, account_number) DO UPDATE SET ifsc_code = excluded.ifsc_code,
                    account_type = excluded.account_type, currency = excluded.currency, extra = excluded.extra,
                    last_seen_at = excluded.last_seen_at`,
  snapshot: `INSERT INTO balance_snapshots (pg, account_number, taken_at, source, available_balance, account_balance,
               minimum_balance, hold_fund, overdraft)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  setError: `INSERT INTO payout_gateway_errors (pg, code, message, at) VALUES (?, ?, ?, ?)
             ON CONFLICT (pg) DO UPDATE SET code = excluded.code, message = excluded.message, at = excluded.at`,
  clearError: `DELETE FROM payout_gateway_errors WHERE pg = ?`,
  accounts: `SELECT pg, account_number AS accountNumber, ifsc_code AS ifscCode, account_type AS accountType, currency,
               extra, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt
             FROM payout_accounts ORDER BY pg, account_number`,
  errors: `SELECT pg, code, message, at FROM payout_gateway_errors ORDER BY pg`,
  snapshots: `SELECT ${SNAPSHOT} FROM balance_snapshots
              WHERE (:pg IS NULL OR pg = :pg) AND (:account IS NULL OR account_number = :account)
                AND (:since IS NULL OR taken_at >= :since)
              ORDER BY taken_at, id LIMIT :limit`,
  latest: `SELECT ${SNAPSHOT} FROM balance_snapshots
           WHERE id IN (SELECT max(id) FROM balance_snapshots GROUP BY pg, account_number) ORDER BY pg, account_number`,
} as const;

export function createAccountsRepository(db: Database, now: () => Date) {
  const sql = prepareAll(db, SQL);

  const recordAccounts = db.transaction((accounts: Readonly<Record<string, GatewayAccounts>>) => {
    const at = now().toISOString();
    for (const [pg, answer] of Object.entries(accounts)) {
      if (!answer.status) {
        sql.setError.run(pg, answer.error.code, answer.error.message, at);
        continue;
      }
      sql.clearError.run(pg);
      for (const a of answer.data) {
        const extra = Object.fromEntries(Object.entries(a).filter(([k]) => !KNOWN.has(k)));
        sql.upsertAccount.run(
          pg,
          a.account_number,
          a.ifsc_code ?? null,
          a.account_type ?? null,
          a.currency ?? null,
          Object.keys(extra).length === 0 ? null : JSON.stringify(extra),
          at,
          at,
        );
        sql.snapshot.run(
          pg,
          a.account_number,
          at,
          'accounts',
          a.available_balance,
          a.account_balance ?? null,
          a.minimum_balance ?? null,
          a.hold_fund,
          a.overdraft,
        );
      }
    }
  });

  const recordBalances = db.transaction((balances: readonly Balance[]) => {
    const at = now().toISOString();
    for (const b of balances) {
      sql.snapshot.run(b.pg, b.account_no ?? '', at, 'balance', b.balance, null, null, null, null);
    }
  });

  return {
    /** The answer of the payout-accounts call: accounts upserted, a snapshot each, gateway errors kept. */
    recordAccounts: (accounts: Readonly<Record<string, GatewayAccounts>>) => recordAccounts(accounts),
    /** The answer of the balance call: a snapshot per balance. */
    recordBalances: (balances: readonly Balance[]) => recordBalances(balances),
    list: () =>
      (sql.accounts.all() as (Omit<CachedAccount, 'extra'> & { extra: string | null })[]).map((a) => ({
        ...a,
        extra: a.extra === null ? null : (JSON.parse(a.extra) as Record<string, unknown>),
      })),
    gatewayErrors: () => sql.errors.all() as GatewayError[],
    /** Snapshots oldest first, for trends; every argument narrows. */
    snapshots(pg?: string, account?: string, since?: string, limit = 10_000): BalanceSnapshot[] {
      return sql.snapshots.all({
        pg: pg ?? null,
        account: account ?? null,
        since: since ?? null,
        limit,
      }) as BalanceSnapshot[];
    },
    /** The newest snapshot of every account. */
    latest: () => sql.latest.all() as BalanceSnapshot[],
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
