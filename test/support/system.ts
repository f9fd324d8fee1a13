/**
 * Tests that need a system component (the OS keychain, Chromium) run only where it is present. On a
 * developer's machine a missing component skips them with a loud message; `.ci/run` sets
 * PAYOUT_CONSOLE_REQUIRE_SYSTEM=1, which turns that skip into a failure, so CI cannot pass by skipping.
 */
export const SYSTEM_REQUIRED = process.env['PAYOUT_CONSOLE_REQUIRE_SYSTEM'] === '1';

/** True when the component is there. Otherwise throws under CI, or warns loudly and returns false. */
export function requireSystem(component: string, problem: string | null): boolean {
  if (problem === null) return true;
  const message = `${component} is not available: ${problem}`;
  if (SYSTEM_REQUIRED) throw new Error(`${message} (PAYOUT_CONSOLE_REQUIRE_SYSTEM=1: a required component is missing)`);
  const line = '!'.repeat(100);
  process.stderr.write(`\n${line}\n!! SKIPPING tests that need ${component}: ${problem}\n${line}\n`);
  return false;
}
