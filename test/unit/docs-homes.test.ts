/**
 * The README was split by audience into docs/ (issue 34). Nothing it held may be lost: every heading the old README
 * had is a heading in README.md or a page under docs/, and every link between the pages leads somewhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles, repoRoot } from '../support/docs';

/** The `##` and `###` headings of README.md before the split (`git show ee2defd:README.md`). */
const OLD_README_HEADINGS = [
  'Quick start',
  'Architecture',
  'The sandbox',
  'Profiles and credentials',
  'Local cache and settlement sync',
  "The console's screens",
  'Adding a screen',
  'Reconciling with the bank',
  'What changed since the last pull',
  'Completeness you can show',
  'Exception workflow and triage',
  'Merchant operations',
  'Exports for accountants (Excel and CSV)',
  'Journal and period close',
  'Command line',
  'Security',
  'Packaging and signing',
  'Native modules: one install, Node and Electron',
  'Tests',
  'Benchmarks',
  'Libraries',
  'Decisions where the interface document says "not shown"',
  'Operations',
];

const pages = markdownFiles().map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }));

/** Headings outside code blocks: a `# comment` line in a shell example is not one. */
function headings(text: string): string[] {
  let inCode = false;
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line)) found.push(line.replace(/^#+ /, '').trim());
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('docs: every heading of the old README has a home', () => {
  const all = new Map(pages.flatMap((p) => headings(p.text).map((h) => [h, p.file] as const)));
  it.each(OLD_README_HEADINGS)('"%s"', (heading) => {
    expect(all.has(heading), `no page has the heading "${heading}"`).toBe(true);
  });

  it('keeps the "not shown" decisions in docs/design, where later work adds to them', () => {
    expect(all.get('Decisions where the interface document says "not shown"')).toMatch(/^docs\/design\//);
  });

  it('keeps the README short', () => {
    expect(readFileSync(join(repoRoot, 'README.md')).length).toBeLessThan(15 * 1024);
  });
});

describe('docs: links between the pages resolve', () => {
  const links = pages.flatMap(({ file, text }) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => ({ file, target })),
  );

  it('has links to check', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it.each(links)('$file → $target', ({ file, target }) => {
    const [path, hash] = target.split('#') as [string, string | undefined];
    const resolved = path ? join(dirname(join(repoRoot, file)), path) : join(repoRoot, file);
    expect(existsSync(resolved), `${target} from ${file}`).toBe(true);
    if (hash) {
      const anchors = headings(readFileSync(resolved, 'utf8')).map(anchor);
      expect(anchors, `no heading #${hash} in ${path || file}`).toContain(hash);
    }
  });
});
