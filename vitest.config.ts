import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**'],
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
