/** A CLI command: its words, its options (node:util parseArgs), and what it runs on the context. */
import type { ParseArgsConfig } from 'node:util';
import type { Context } from './context';
import type { Io } from './io';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  /** The words that name it: `['profiles', 'list']`. */
  words: string[];
  usage: string;
  options?: Options;
  /** How many positional arguments follow the words. */
  positionals?: { min: number; max: number; names: string };
  /**
   * Runs the command; a command that did its work but must not exit 0 (a sync that ended partial) returns its
   * exit code rather than setting process.exitCode, which the program's own exit code would overwrite.
   */
  run(input: { ctx: Context; values: Values; positionals: string[]; io: Io }): Promise<void | number>;
}

/** Group words kept working under an older name: `beneficiary add` is `beneficiaries add`. */
export const GROUP_ALIASES: Readonly<Record<string, string>> = {
  beneficiary: 'beneficiaries',
  payout: 'payouts',
};
