/** The project's Markdown pages, for the tests that hold the docs to the code. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', ...walk(join(repoRoot, 'docs')).map((f) => relative(repoRoot, f))];
}

/** Every source file of the project (not node_modules, not built output), as path → text. */
export function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (/\.(tsx?|mjs|cjs)$/.test(e.name)) files.set(path, readFileSync(join(repoRoot, path), 'utf8'));
    }
  };
  for (const dir of ['electron', 'shared', 'renderer/src', 'test', 'scripts']) walk(dir);
  return files;
}

/** What a recipe quotes in backticks: the repository files it names and the code names it tells a reader to use. */
export function recipeClaims(page: string): { files: string[]; names: string[] } {
  const quoted = [...readFileSync(join(repoRoot, page), 'utf8').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const files = quoted.filter((q) => /^(electron|shared|renderer|test)\/[\w./-]+\.tsx?$/.test(q));
  const names = quoted
    .filter((q) => !files.includes(q))
    .flatMap((q) => [...q.matchAll(/\b([a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]+_[A-Z_]+|[A-Z][a-z]+Error)\b/g)])
    .map((m) => m[1]!);
  return { files: [...new Set(files)], names: [...new Set(names)] };
}

/**
 * Whether the code has `name`: declared (a function, const, class, interface, type or an object's key), imported
 * from Node's own modules, or, for a code such as `INVALID_INPUT`, a string the code produces.
 */
export function declared(all: Map<string, string>, name: string): boolean {
  const patterns = [
    new RegExp(`\\b(?:function|const|let|class|interface|type)\\s+${name}\\b`),
    new RegExp(`^\\s+${name}:`, 'm'),
    new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from 'node:`),
    ...(/^[A-Z_]+$/.test(name) ? [new RegExp(`'${name}'`)] : []),
  ];
  return [...all.values()].some((text) => patterns.some((p) => p.test(text)));
}
