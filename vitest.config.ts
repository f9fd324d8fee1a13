import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The unit files that share one process (project `unit`): all of test/unit but those that replace modules with
 * stand-ins (`vi.mock`), whose stand-ins must not meet another file's real modules; those run in `node`.
 */
const UNIT = fileURLToPath(new URL('./test/unit/', import.meta.url));
const sharedUnitFiles = readdirSync(UNIT, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && !/\bvi\.mock\(/.test(readFileSync(UNIT + f, 'utf8')))
  .map((f) => `test/unit/${f}`);

export default defineConfig({
  test: {
    // Vitest runs one file fewer at once than the machine has cores; on two cores (this project's CI) that is one
    // file at a time, and the suite's files spend much of their time waiting on child processes (the sandbox,
    // Chromium, LibreOffice, PostgreSQL). Two at once there: 1,007 s against 1,222 for the whole suite, all green.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Bounds for a test or hook that hangs, not a check of speed: with two files sharing two cores a test takes up to
    // twice its time alone, and one of 13 s here took 20.2 s in CI (the secret-containment test, at 20 s it failed).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits on the event itself; its 1 s default is a timer a busy CI machine loses (a screen's data
    // took longer than that to replace its skeleton once), so a poll gives up only well inside the test's timeout.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        // Pure logic, no servers or child processes left behind: one process runs the files in turn, so the modules
        // they share are imported once, not once per file (a fresh process per file cost these files most of
        // their time). Each file still gets fresh test state; module state is the modules' own.
        extends: true,
        test: {
          name: 'unit',
          include: sharedUnitFiles,
          environment: 'node',
          pool: 'forks',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', ...sharedUnitFiles],
          environment: 'node',
          // Integration tests start real servers and child processes; forks isolate them cleanly.
          pool: 'forks',
        },
      },
      {
        // The renderer's stores, hooks and pure logic in a DOM of jsdom's: no browser, no main process.
        extends: true,
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
    ],
  },
});
