/**
 * The API client's cost over the wire: settlement pages fetched through the client (auth, schema
 * validation, exact money normalization) against a bare loopback fetch + JSON.parse of the same pages.
 * Target: the client keeps at least 60% of the bare rate.
 */
import { createMerchantApi } from '../../electron/api';
import { SETTLEMENT_PAGE } from '../../shared/api/settlements';
import { startSandbox } from '../../electron/sandbox/server';
import type { Bench } from './run';

const TARGET_RATIO = 0.6;

export const clientBenches: Bench = {
  group: 'client',
  async *run({ rows }) {
    const limit = SETTLEMENT_PAGE.maxLimit;
    const sandbox = await startSandbox({ port: 0, settlementsPerDay: rows });
    const key = 'test_key';
    const secret = 'test_secret';
    const date = sandbox.fixtures().settlementDates.at(-1)!;
    const auth = 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');
    try {
      // Warm both paths so neither pays for JIT or connection set-up in its figure.
      await bare(sandbox.url, auth, key, date, 0, limit);
      const api = createMerchantApi({
        profile: { baseUrl: sandbox.url, aiUrl: sandbox.url + '/ai', key, hashScheme: 'sha512' },
        secret: () => secret,
      });

      let t = performance.now();
      let n = 0;
      for (let offset = 0; offset < rows; offset += limit) n += await bare(sandbox.url, auth, key, date, offset, limit);
      const bareRate = n / ((performance.now() - t) / 1000);
      yield { bench: 'ceiling.http_fetch', rows: n, rows_per_s: Math.round(bareRate) };

      t = performance.now();
      n = 0;
      for await (const page of api.settlements.pages({ date, limit })) n += page.data.length;
      const clientRate = n / ((performance.now() - t) / 1000);
      api.close();
      yield {
        bench: 'client.settlement_fetch',
        rows: n,
        rows_per_s: Math.round(clientRate),
        ceiling: 'ceiling.http_fetch',
        ceiling_rows_per_s: Math.round(bareRate),
        ratio: Number((clientRate / bareRate).toFixed(3)),
        target_ratio: TARGET_RATIO,
        pass: clientRate / bareRate >= TARGET_RATIO,
      };
    } finally {
      await sandbox.close();
    }
  },
};

async function bare(
  url: string,
  auth: string,
  key: string,
  date: string,
  offset: number,
  limit: number,
): Promise<number> {
  const res = await fetch(`${url}/api/v2/settlement/fetch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({ key, date, offset: String(offset), limit: String(limit) }),
  });
  const body = JSON.parse(await res.text()) as { data: unknown[] };
  return body.data.length;
}
