/**
 * The tests' clock. The sandbox anchors its data to "today" in IST, so a test that let it read the real date
 * would test different data every day. Every sandbox, core, app and CLI a test starts takes `testClock()`
 * instead: it starts at one fixed instant and moves on with the time the test takes (timers, intervals and
 * "since" stamps still behave), so a run sees the same dates on any day, in any time zone.
 *
 * The instant is PAYOUT_CONSOLE_TEST_NOW when set (any `Date.parse` form), so the whole suite can be run as
 * of another day: `PAYOUT_CONSOLE_TEST_NOW=2028-02-29T18:00:00Z npm test`.
 */
import { epochMsToIstDate } from '../../shared/time';

/** 12:00 IST, far from either end of the IST day, so a run never crosses midnight by taking its time. */
const DEFAULT_NOW = '2026-06-15T06:30:00.000Z';

function pinnedInstant(): number {
  const text = process.env['PAYOUT_CONSOLE_TEST_NOW'] ?? DEFAULT_NOW;
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw new Error(`PAYOUT_CONSOLE_TEST_NOW=${JSON.stringify(text)} is not a date`);
  return at;
}

/** The instant every test clock starts at (epoch ms). */
export const TEST_NOW = pinnedInstant();

/** "Today" for the sandbox and the console under test: the IST date of TEST_NOW. */
export const TEST_TODAY = epochMsToIstDate(TEST_NOW);

/**
 * A clock that reads `start` at its creation and then advances with the monotonic clock, so it is immune to
 * the wall clock (and to faketime or a clock change while a test runs).
 */
export function testClock(start: number = TEST_NOW): () => number {
  const origin = performance.now();
  return () => start + Math.floor(performance.now() - origin);
}
