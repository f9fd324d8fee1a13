/**
 * The "Adding a screen" recipe (docs/contributing/adding-a-screen.md) stays true: every file it names exists under
 * renderer/src, and every component, hook and type it tells a new screen to use is exported there.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../renderer/src/', import.meta.url).pathname;
const recipe = readFileSync(new URL('../../docs/contributing/adding-a-screen.md', import.meta.url), 'utf8');
const quoted = [...recipe.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const exported = new Set(
  sources(root).flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/export (?:function|const|class|interface|type) (\w+)/g)].map((m) => m[1]!),
  ),
);

describe('docs: adding a screen', () => {
  it('is there and names files and exports', () => {
    expect(recipe.length).toBeGreaterThan(500);
  });

  const files = quoted.filter((q) => /^(ui|query|navigation)\/[\w./-]+\.tsx?$/.test(q));
  it.each(files)('names %s, which exists', (file) => {
    expect(existsSync(join(root, file))).toBe(true);
  });

  // Every identifier a quoted snippet uses: `<SavedViewsMenu table={…} />`, `const views = useSavedViews(…)`.
  const names = [
    ...new Set(
      quoted.flatMap((q) =>
        [...q.matchAll(/\b(use[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]+_[A-Z_]+|currentViewName)\b/g)].map((m) => m[1]!),
      ),
    ),
  ];
  it.each(names)('tells a screen to use %s, which renderer/src exports', (name) => {
    expect(exported.has(name)).toBe(true);
  });

  it('covers the parts a screen is built from', () => {
    for (const part of ['PageHeader', 'DataTable', 'useSavedViews', 'SavedViewsMenu', 'SCREEN_GROUPS', 'useIpcQuery']) {
      expect(names).toContain(part);
    }
  });
});
