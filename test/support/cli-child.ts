/**
 * The command line as a child process of a test (`node --import tsx test/support/cli-child.ts ARGS…`), on the
 * tests' clock: the child inherits PAYOUT_CONSOLE_TEST_NOW with the rest of the environment, so it starts at the
 * same pinned instant as the parent's sandbox and agrees with it on "today" whatever the machine's clock says.
 * For tests that must kill or race real processes; the others run the CLI in-process (cli.ts).
 */
import { runCli } from '../../electron/cli/main';
import { processIo } from '../../electron/cli/io';
import { testClock } from './clock';

process.exitCode = await runCli(process.argv.slice(2), process.env, processIo, testClock());
