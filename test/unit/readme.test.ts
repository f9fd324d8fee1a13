/**
 * The docs make promises: the operation table (docs/design/operations.md), the reconciliation formula
 * (docs/design/not-shown.md) and the screenshots of the README and docs/ stay true.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../electron/cli/main';
import { OPERATIONS, OPERATION_NAMES } from '../../shared/api/operations';
import { expectedSettledAmount } from '../../shared/reconciliation';
import { markdownFiles, repoRoot } from '../support/docs';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const operationsDoc = read('docs/design/operations.md');
const rows = operationsDoc.split('\n').filter((l) => l.startsWith('| ') && /`[/{]/.test(l));

describe('docs: operations table', () => {
  it.each(OPERATION_NAMES)('lists %s with its path, auth and retry safety', (name) => {
    const spec = OPERATIONS[name];
    const path = spec.host === 'ai' ? `{ai_url}${spec.path}` : spec.path;
    const row = rows.find((r) => r.includes('`' + path + '`'));
    expect(row, `no row in docs/design/operations.md for ${path}`).toBeDefined();
    const cells = row!.split('|').map((c) => c.trim());
    expect(cells[3]).toMatch(spec.auth === 'body' ? /^body$/ : /^Basic/);
    expect(cells[3]!.includes('key/hash')).toBe(spec.auth === 'basic' && spec.credentials === 'key+hash');
    expect(cells[4]).toBe(spec.safe ? 'yes' : 'no');
  });

  // The screen list is read as text: importing it would pull React into a Node test.
  const screens = readFileSync(new URL('../../renderer/src/navigation/screens.tsx', import.meta.url), 'utf8');
  const screenLabels = [...screens.matchAll(/label: '([^']+)'/g)].map((m) => m[1]!);
  const commands = new Set(COMMANDS.map((c) => c.words.join(' ')));

  it.each(OPERATION_NAMES)('names a screen and a command for %s, each of which exists', (name) => {
    const spec = OPERATIONS[name];
    const path = spec.host === 'ai' ? `{ai_url}${spec.path}` : spec.path;
    const cells = rows
      .find((r) => r.includes('`' + path + '`'))!
      .split('|')
      .map((c) => c.trim());
    const [ui, cli] = [cells[7]!, cells[8]!];
    // Every operation has a place in the console and the CLI (docs/design/operations.md says so under the table).
    expect([ui, cli]).not.toContain('–');
    for (const screen of ui.split(', ')) {
      expect(
        screenLabels.some((l) => l.startsWith(screen)),
        `no screen "${screen}"`,
      ).toBe(true);
    }
    for (const command of cli.split(', ')) {
      // `orders refund --amount`: the command, and an option it takes.
      const [words, flag] = command.replaceAll('`', '').split(' --');
      expect(commands.has(words!), `no command ${command}`).toBe(true);
      const options = COMMANDS.find((c) => c.words.join(' ') === words)?.options ?? {};
      if (flag) expect(Object.keys(options), `${words} has no --${flag}`).toContain(flag);
    }
  });

  it('has no row for an operation that does not exist', () => {
    expect(rows).toHaveLength(OPERATION_NAMES.length);
  });
});

describe('docs: reconciliation formula', () => {
  it('is the formula the code checks, with every sign as the code has it', () => {
    const line = read('docs/design/not-shown.md')
      .split('\n')
      .find((l) => /^settled_amount\s+=/.test(l));
    expect(
      line,
      'the formula on a line of its own (in a code block, so no Markdown turns a term into a list)',
    ).toBeDefined();
    // Evaluate the document's terms on a record whose amounts are distinct powers of ten, so any sign shows.
    const record = {
      amount: 100_000,
      mer_service_fee: 10_000,
      mer_service_tax: 1_000,
      merchant_subvention_amount: 100,
      cgst: 0,
      sgst: 0,
      igst: 0,
      settled_amount: 0,
    };
    const terms = line!.split('=')[1]!.trim().split(/\s+/);
    let sum = 0;
    let sign = 1;
    for (const term of terms) {
      if (term === '+' || term === '−' || term === '-') sign = term === '+' ? 1 : -1;
      else sum += sign * record[term as keyof typeof record];
    }
    expect(sum).toBe(expectedSettledAmount(record));
  });
});

describe('docs: screenshots', () => {
  // Each picture as a path from the repository's root, whichever page shows it (README.md or a page under docs/).
  const shown = [
    ...new Set(
      markdownFiles().flatMap((file) =>
        [...read(file).matchAll(/!\[[^\]]+\]\(([^)]*screenshots\/[^)]+)\)/g)].map((m) =>
          relative(repoRoot, join(repoRoot, dirname(file), m[1]!)),
        ),
      ),
    ),
  ];
  const folder = new URL('../../docs/screenshots/', import.meta.url);

  it('shows the screens it describes', () => {
    expect(shown.length).toBeGreaterThanOrEqual(9);
  });
  it.each(shown)('%s is there: a PNG 1280 px wide, as the e2e tests save them', (path) => {
    const png = readFileSync(new URL(`../../${path}`, import.meta.url));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The IHDR chunk holds the width, big-endian, at byte 16.
    expect(png.readUInt32BE(16)).toBe(1280);
  });
  it('keeps no picture it does not show', () => {
    expect(
      readdirSync(folder)
        .map((f) => `docs/screenshots/${f}`)
        .sort(),
    ).toEqual([...shown].sort());
  });
});
