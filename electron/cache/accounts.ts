/**
 * Payout accounts per gateway and their balances over time. Every accounts or balance call adds one
 * snapshot per account (history kept, for trends); a gateway that answered with its own error keeps
 * that error until it answers again.
 */
import type { Database } from 'better-sqlite3';
import type { AccountsOverview, BalanceSnapshot, CachedAccount, GatewayError } from '../../shared/accounts';
import { payoutAccount, type Balance, type GatewayAccounts } from '../../shared/api/payouts';
import { prepareAll } from './statements';
import { parseUnnamedFields, unnamedFieldsJson } from './unnamed-fields';

export type { BalanceSnapshot, CachedAccount, GatewayError };

const KNOWN = new Set(Object.keys(payoutAccount.shape));

const SNAPSHOT = `id, pg, account_number AS accountNumber, taken_at AS takenAt, source,
  available_balance AS availableBalance, account_balance AS accountBalance, minimum_balance AS minimumBalance,
  hold_fund AS holdFund, overdraft`;

const SQL = {
  upsertAccount: `INSERT INTO payout_accounts (pg, account_number, ifsc_code, account_type, currency, transaction_limit,
                    extra, first_seen_at, last_seen_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                  ON CONFLICT (pg, account_number) DO UPDATE SET ifsc_code = excluded.ifsc_code,
                    account_type = excluded.account_type, currency = excluded.currency,
                    transaction_limit = excluded.transaction_limit, extra = excluded.extra,
                    last_seen_at = excluded.last_seen_at`,
  snapshot: `INSERT INTO balance_snapshots (pg, account_number, taken_at, source, available_balance, account_balance,
               minimum_balance, hold_fund, overdraft)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  setError: `INSERT INTO payout_gateway_errors (pg, code, message, at) VALUES (?, ?, ?, ?)
             ON CONFLICT (pg) DO UPDATE SET code = excluded.code, message = excluded.message, at = excluded.at`,
  clearError: `DELETE FROM payout_gateway_errors WHERE pg = ?`,
  accounts: `SELECT pg, account_number AS accountNumber, ifsc_code AS ifscCode, account_type AS accountType, currency,
               transaction_limit AS transactionLimit, extra, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt
             FROM payout_accounts ORDER BY pg, account_number`,
  errors: `SELECT pg, code, message, at FROM payout_gateway_errors ORDER BY pg`,
  snapshots: `SELECT ${SNAPSHOT} FROM balance_snapshots
              WHERE (:pg IS NULL OR pg = :pg) AND (:account IS NULL OR account_number = :account)
                AND (:since IS NULL OR taken_at >= :since)
              ORDER BY taken_at, id LIMIT :limit`,
  snapshotById: `SELECT ${SNAPSHOT} FROM balance_snapshots WHERE id = ?`,
  everySnapshot: `SELECT ${SNAPSHOT} FROM balance_snapshots ORDER BY pg, account_number, taken_at, id`,
  latest: `SELECT ${SNAPSHOT} FROM balance_snapshots
           WHERE id IN (SELECT max(id) FROM balance_snapshots GROUP BY pg, account_number) ORDER BY pg, account_number`,
  latestBySource: `SELECT ${SNAPSHOT} FROM balance_snapshots
                   WHERE id IN (SELECT max(id) FROM balance_snapshots GROUP BY pg, account_number, source)`,
  thresholds: `SELECT pg, threshold FROM headroom_thresholds`,
  setThreshold: `INSERT INTO headroom_thresholds (pg, threshold) VALUES (?, ?)
                 ON CONFLICT (pg) DO UPDATE SET threshold = excluded.threshold`,
  clearThreshold: `DELETE FROM headroom_thresholds WHERE pg = ?`,
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
        sql.upsertAccount.run(
          pg,
          a.account_number,
          a.ifsc_code ?? null,
          a.account_type ?? null,
          a.currency ?? null,
          a.transaction_limit ?? null,
          unnamedFieldsJson(a, KNOWN),
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

  const recordBalances = db.transaction((balances: readonly Balance[]): BalanceSnapshot[] => {
    const at = now().toISOString();
    return balances.map((b) => {
      const id = sql.snapshot.run(
        b.pg,
        b.account_no ?? '',
        at,
        'balance',
        b.balance,
        null,
        null,
        null,
        null,
      ).lastInsertRowid;
      return sql.snapshotById.get(id) as BalanceSnapshot;
    });
  });

  const list = (): CachedAccount[] =>
    (sql.accounts.all() as (Omit<CachedAccount, 'extra'> & { extra: string | null })[]).map((a) => ({
      ...a,
      extra: parseUnnamedFields(a.extra),
    }));
  return {
    /** The answer of the payout-accounts call: accounts upserted, a snapshot each, gateway errors kept. */
    recordAccounts: (accounts: Readonly<Record<string, GatewayAccounts>>) => recordAccounts(accounts),
    /** The answer of the balance call: a snapshot per balance, returned. */
    recordBalances: (balances: readonly Balance[]) => recordBalances(balances),
    list,
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
    /** Every snapshot, by account and then oldest first, read as they are used: exports. */
    everySnapshot: () => sql.everySnapshot.iterate() as IterableIterator<BalanceSnapshot>,
    /** The newest snapshot of every account. */
    latest: () => sql.latest.all() as BalanceSnapshot[],
    /** The desk's low-headroom threshold per gateway, in paise. */
    thresholds: (): Record<string, number> =>
      Object.fromEntries((sql.thresholds.all() as { pg: string; threshold: number }[]).map((t) => [t.pg, t.threshold])),
    setThreshold(pg: string, threshold: number | null): void {
      if (threshold === null) sql.clearThreshold.run(pg);
      else sql.setThreshold.run(pg, threshold);
    },
    /** Every account with its newest snapshot and every gateway's standing error: the accounts screen, offline. */
    overview(): AccountsOverview {
      const newest = sql.latestBySource.all() as BalanceSnapshot[];
      const find = (a: CachedAccount, source: BalanceSnapshot['source']) =>
        newest.find((b) => b.pg === a.pg && b.accountNumber === a.accountNumber && b.source === source) ?? null;
      const gatewayErrors = sql.errors.all() as GatewayError[];
      const accounts = list().map((a) => {
        // A balance check has the available balance only: it never stands in for the full answer.
        const latest = find(a, 'accounts');
        const checked = find(a, 'balance');
        return { ...a, latest, checked: checked && (!latest || checked.id > latest.id) ? checked : null };
      });
      const times = newest.map((b) => b.takenAt).concat(gatewayErrors.map((e) => e.at));
      return { accounts, gatewayErrors, asOf: times.length ? times.sort().at(-1)! : null };
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
