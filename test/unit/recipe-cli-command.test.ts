/**
 * docs/contributing/adding-a-cli-command.md stays true: the files and names it quotes exist, its worked example
 * (`webhooks list`) is in every file a step sends the reader to, every command group is registered as it says, and
 * the exit codes it gives are the CLI's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../electron/cli/io';
import { COMMANDS } from '../../electron/cli/main';
import { declared, recipeClaims, repoRoot, sources } from '../support/docs';

const PAGE = 'docs/contributing/adding-a-cli-command.md';
const { files, names } = recipeClaims(PAGE);
const all = sources();
const text = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

describe('recipe: adding a CLI command', () => {
  it.each(files)('names %s, which exists', (file) => {
    expect(existsSync(join(repoRoot, file))).toBe(true);
  });
  it.each(names)('names %s, which the code has', (name) => {
    expect(declared(all, name)).toBe(true);
  });

  it.each([
    ['electron/cli/command.ts', 'export interface Command'],
    ['electron/cli/command.ts', 'GROUP_ALIASES'],
    ['electron/cli/commands/webhooks.ts', "words: ['webhooks', 'list']"],
    ['electron/cli/commands/webhooks.ts', 'export const webhookCommands'],
    ['electron/cli/io.ts', 'export function result('],
    ['electron/cli/main.ts', '...webhookCommands,'],
    ['test/support/cli.ts', 'runCli('],
    ['test/integration/merchant-tools-cli.test.ts', "'webhooks', 'list'"],
  ])('%s holds %s', (file, snippet) => {
    expect(files, `${file} is not named by the recipe`).toContain(file);
    expect(text(file)).toContain(snippet);
  });

  it('registers every command group in COMMANDS, as step 4 says', () => {
    const main = text('electron/cli/main.ts');
    const groups = [...all].flatMap(([file, t]) =>
      file.startsWith('electron/cli/commands/')
        ? [...t.matchAll(/export const (\w+Commands)\b/g)].map((m) => m[1]!)
        : [],
    );
    expect(groups.length).toBeGreaterThan(10);
    for (const group of groups) expect(main, group).toContain(`...${group},`);
  });

  it('gives the exit codes EXIT has', () => {
    expect(EXIT).toEqual({ done: 0, refused: 1, badInput: 2, outcomeUnknown: 3 });
    const page = text(PAGE);
    expect(page).toMatch(/`UsageError` and `InputError` exit 2/);
    expect(page).toMatch(/`OutcomeUnknownError` 3/);
  });

  it('has every command group documented in the guide, as step 5 asks', () => {
    const guide = ['command-line', 'reconciliation', 'journal-and-close']
      .map((page) => text(`docs/guide/${page}.md`))
      .join('\n');
    for (const group of new Set(COMMANDS.map((c) => c.words[0]!))) expect(guide, group).toContain(`\`${group}`);
  });
});
