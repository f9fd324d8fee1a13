#!/usr/bin/env node
// The `payout-console` command: the CLI as built by `npm run build` (out/main/cli.js), run under Node.
import { existsSync } from 'node:fs';

const built = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('payout-console: not built yet; run `npm run build` (or use `npm run cli -- ...`)\n');
  process.exit(1);
}
const { runCli } = await import(built.href);
process.exitCode = await runCli(process.argv.slice(2));
