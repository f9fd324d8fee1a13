/**
 * What a process pays to load the console: exceljs (about 0.6 s of CPU and 600 CommonJS modules) is imported when a
 * workbook is first read or written, not with the core, the command line or the sandbox, which every command-line
 * run, the app's start and most test files load without reading a workbook (sheet-reader.ts, bank-statement.ts).
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

/** The node_modules packages a fresh Node process holds in its CommonJS cache after importing `modules`. */
function packagesLoadedBy(modules: string[]): string[] {
  const script = `
    import { createRequire } from 'node:module';
    for (const m of ${JSON.stringify(modules)}) await import(new URL(m, 'file://${process.cwd()}/').href);
    const names = Object.keys(createRequire(import.meta.url).cache)
      .map((k) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(k)?.[1])
      .filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`loading ${modules.join(', ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

it('loads the command line, the core and the sandbox without exceljs', () => {
  const loaded = packagesLoadedBy(['electron/cli/main.ts', 'electron/core.ts', 'electron/sandbox/server.ts']);
  // The probe sees CommonJS packages: the core's own are there, so an absent exceljs is absent, not unseen.
  expect(loaded).toEqual(expect.arrayContaining(['better-sqlite3', 'pg', 'pino']));
  expect(loaded).not.toContain('exceljs');
});
