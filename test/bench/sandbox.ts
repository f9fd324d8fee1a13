/**
 * The sandbox serves any page of a day in time proportional to the page, not the day: a source of
 * 1,000,000 records a day starts and answers its last page (and a gateway's page deep in the day) at once.
 * This was a timed unit test; timings belong here, against a fixed target.
 */
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { seedState } from '../../electron/sandbox/seed';
import { TEST_TODAY } from '../support/clock';
import type { Bench } from './run';

const PER_DAY = 1_000_000;
const TARGET_MS = 100;

export const sandboxBenches: Bench = {
  group: 'sandbox',
  async *run() {
    const { gateways } = seedState(1, TEST_TODAY);
    const t0 = performance.now();
    const source = new SettlementSource(1, PER_DAY, gateways);
    const last = source.page(TEST_TODAY, undefined, PER_DAY - 1000, 1000);
    const deep = source.page(TEST_TODAY, gateways[0]!, Math.floor(PER_DAY / 8), 1000);
    const ms = performance.now() - t0;
    if (last.data.length !== 1000 || deep.data.length === 0) throw new Error('the sandbox served short pages');
    yield {
      bench: 'sandbox.page_of_1m_day',
      per_day: PER_DAY,
      ms: Number(ms.toFixed(1)),
      target_ms: TARGET_MS,
      pass: ms < TARGET_MS,
    };
  },
};
