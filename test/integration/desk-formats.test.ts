/**
 * The desk's own sentences (desk migration 11) read as the console's do, on a real PostgreSQL whose sessions run
 * in another zone: amounts as formatMoney writes them, times as formatIstInstant, a batch as batchWords, and the
 * closed-period refusals and journal entries with dd/mm/yyyy dates and the closing time in IST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../electron/desk/desk';
import { batchWords } from '../../electron/reconciliation/reconcile';
import { formatDateRange, formatIstInstant } from '../../shared/format';
import { formatMoney } from '../../shared/money';
import { createTestDesk, publishedException, type TestDesk } from '../support/desk';
import { postgresAvailable, startCluster, type TestCluster } from '../support/postgres';

const DATE = '2026-06-12';
const BATCH = { date: DATE, pg: 'cashfree', utr: 'UTR77', settlementDate: `${DATE} 12:12:26` };

describe.runIf(postgresAvailable())("the desk's sentences in the console's formats", () => {
  let cluster: TestCluster;
  let desk: TestDesk;
  let operator: Desk;
  let approver: Desk;

  /** One value of a desk SQL expression, asked in a session whose zone is not IST. */
  async function sql<T>(expression: string, params: unknown[]): Promise<T> {
    const su = await desk.superuser();
    try {
      await su.query("SET TIME ZONE 'America/Los_Angeles'");
      return (await su.query<{ v: T }>(`SELECT ${expression} AS v`, params)).rows[0]!.v;
    } finally {
      await su.end();
    }
  }

  beforeAll(async () => {
    cluster = await startCluster();
    desk = await createTestDesk(cluster, { olga: 'operator', arun: 'approver' });
    operator = await desk.open('olga');
    approver = await desk.open('arun');
    await operator.exceptions.publish(DATE, [publishedException(1)]);
  });
  afterAll(async () => {
    await Promise.all([operator?.close(), approver?.close()]);
    cluster?.destroy();
  });

  it('writes rupees as formatMoney does, to the paisa, with lakh and crore grouping', async () => {
    const amounts = [0, 5, -5, 99, 100, -260_621, 100_000, 12_345_678, 123_456_789, -999_999_999, 12_345_678_901_234];
    const written = await sql<string[]>('array(SELECT desk.rupees(a) FROM unnest($1::bigint[]) AS a)', [amounts]);
    expect(written).toEqual(amounts.map((a) => formatMoney(a)));
  });

  it('writes times as formatIstInstant does, and a batch as batchWords does, whatever the session zone', async () => {
    const instants = ['2026-12-31T18:45:00.000Z', '2026-06-12T06:42:26.000Z', '2026-06-12T17:29:59.000Z'];
    const written = await sql<string[]>('array(SELECT desk.ist_text(t) FROM unnest($1::timestamptz[]) AS t)', [
      instants,
    ]);
    expect(written).toEqual(instants.map(formatIstInstant));
    for (const b of [BATCH, { ...BATCH, utr: '', settlementDate: `${DATE} 00:05:00` }]) {
      expect(await sql<string>('desk.batch_words($1::jsonb)', [JSON.stringify(b)])).toBe(batchWords(b));
    }
  });

  it('closes, refuses and journals with dd/mm/yyyy dates and the closing time in IST', async () => {
    await approver.periods.close('2026-06-01', '2026-06-30');
    const [period] = await approver.periods.list();
    const closed = `${formatDateRange('2026-06-01', '2026-06-30')} (closed by ${desk.who('arun')} on ${formatIstInstant(period!.closedAt)})`;
    await expect(approver.periods.close('2026-06-30', '2026-07-02')).rejects.toMatchObject({
      message: `${formatDateRange('2026-06-30', '2026-07-02')} overlaps the closed period ${closed}.`,
    });
    const [row] = (await operator.exceptions.queue({}, { offset: 0, limit: 1 })).rows;
    await expect(operator.exceptions.act({ ...row!, version: row!.version }, 'note', 'called')).rejects.toMatchObject({
      code: 'PERIOD_CLOSED',
      message: `The period ${closed.replace(' (', ' is closed (')}; an approver must reopen it first.`,
    });
    await expect(sql('desk.refuse_closed_batch($1)', [DATE])).rejects.toThrow(
      `The period ${closed.replace(' (', ' is closed (')}; an approver must reopen it before its batches are matched or unmatched.`,
    );
    await approver.periods.reopen(period!.id, 'a late credit');
    const entries = await operator.journal.list({ kind: 'period', limit: 2 });
    expect(entries.map((e) => e.summary)).toEqual([
      'Reopened 01/06/2026 to 30/06/2026: a late credit',
      'Closed 01/06/2026 to 30/06/2026 for the desk.',
    ]);
  });

  it("journals a match by hand's batch and difference as the console does", async () => {
    const line = { rowNumber: 2, date: DATE, valueDate: DATE, narration: 'NEFT CASHFREE', reference: 'UTR77' };
    const { accountId } = await operator.reconciliation.importStatement(
      'HDFC current',
      { date: 'Date', narration: 'Narration', amount: 'Amount' },
      { fileName: 'hdfc.csv', digest: 'ab'.repeat(32), layout: 'test', bad: 0 },
      [{ ...line, amount: 1_23_45_000, balance: null, rail: 'NEFT', utr: 'UTR77', lineKey: 'line-1' }],
    );
    const [credit] = (await operator.reconciliation.snapshot(accountId, DATE, DATE)).lines;
    const settled = 1_23_47_606_21;
    await operator.reconciliation.matchByHand('HDFC current', { ...BATCH, settled }, [credit!.id], 'checked');
    const [entry] = await operator.journal.list({ kind: 'action', limit: 1 });
    expect(entry!.summary).toBe(
      `Matched batch ${batchWords(BATCH)} by hand to 1 credit in "HDFC current" ` +
        `(difference ${formatMoney(1_23_45_000 - settled)}): checked`,
    );
  });
});
