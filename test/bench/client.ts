/**
 * The API client's cost over the wire: settlement pages fetched through the client (auth, schema
 * validation, exact money normalization) against a bare loopback fetch + JSON.parse of the same pages.
 * The two are measured page by page in turn, so a change of the machine's load touches both. Target: the client
 * keeps at least 85% of the bare rate.
 */
import { createMerchantApi } from '../../electron/api';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import { basicHeader } from '../support/sandbox-http';
import type { Bench } from './run';
import { startTestSandbox } from '../support/sandbox';

const TARGET_RATIO = 0.85;

export const clientBenches: Bench = {
  group: 'client',
  async *run({ rows }) {
    const limit = SETTLEMENT_PAGE.maxLimit;
    const sandbox = await startTestSandbox({ settlementsPerDay: rows });
    const key = 'test_key';
    const secret = 'test_secret';
    const date = sandbox.fixtures().settlementDates.at(-1)!;
    const auth = basicHeader(key, secret);
    try {
      // Warm the bare path so its figure pays for no JIT or connection set-up. The client's path is not warmed:
      // its first page's set-up counts in its own figure, against its target.
      await bareSettlementPage(sandbox.url, auth, key, date, 0, limit);
      const api = createMerchantApi({
        profile: { baseUrl: sandbox.url, aiUrl: sandbox.url + '/ai', key, hashScheme: 'sha512' },
        secret: () => secret,
      });

      // Page by page, the bare fetch and the client's in turn (which goes first alternates), each timed on its own:
      // both rates then see the machine in the same state. Run one after the other, a change of load between the
      // two halves moved the ratio between 0.8 and 1.05 from run to run.
      let bareMs = 0;
      let clientMs = 0;
      let bareCpu = 0;
      let clientCpu = 0;
      /** CPU microseconds of this process (the sandbox's too, which serves both alike). */
      const cpu = () => {
        const { user, system } = process.cpuUsage();
        return user + system;
      };
      let n = 0;
      let m = 0;
      const bare = async (offset: number) => {
        const [t, c] = [performance.now(), cpu()];
        n += await bareSettlementPage(sandbox.url, auth, key, date, offset, limit);
        bareMs += performance.now() - t;
        bareCpu += cpu() - c;
      };
      const client = async (offset: number) => {
        const [t, c] = [performance.now(), cpu()];
        m += (await api.settlements.page({ date, offset, limit })).data.length;
        clientMs += performance.now() - t;
        clientCpu += cpu() - c;
      };
      for (let offset = 0, k = 0; offset < rows; offset += limit, k++) {
        for (const read of k % 2 === 0 ? [bare, client] : [client, bare]) await read(offset);
      }
      const bareRate = n / (bareMs / 1000);
      const clientRate = m / (clientMs / 1000);
      api.close();
      yield { bench: 'ceiling.http_fetch', rows: n, rows_per_s: Math.round(bareRate) };
      yield {
        bench: 'client.settlement_fetch',
        rows: m,
        rows_per_s: Math.round(clientRate),
        ceiling: 'ceiling.http_fetch',
        ceiling_rows_per_s: Math.round(bareRate),
        ratio: Number((clientRate / bareRate).toFixed(3)),
        // The same in CPU time: steadier than wall time when other work shares the cores.
        cpu_ratio: Number((bareCpu / n / (clientCpu / m)).toFixed(3)),
        target_ratio: TARGET_RATIO,
        pass: clientRate / bareRate >= TARGET_RATIO,
      };
    } finally {
      await sandbox.close();
    }
  },
};

/**
 * One settlement page by a bare loopback fetch + JSON.parse, with a ready-made Basic `authorization` header: the
 * ceiling of the client group and of the sync group. Returns the records on the page.
 */
export async function bareSettlementPage(
  url: string,
  authorization: string,
  key: string,
  date: string,
  offset: number,
  limit: number,
): Promise<number> {
  const res = await fetch(`${url}/api/v2/settlement/fetch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ key, date, offset: String(offset), limit: String(limit) }),
  });
  const body = JSON.parse(await res.text()) as { data: unknown[] };
  return body.data.length;
}
