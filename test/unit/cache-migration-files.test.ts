/**
 * The cache's migrations are one file each (electron/cache/migrations/NNN-name.ts): a file's number is its
 * migration's version, and the index lists every file once, in order, so the runner applies what the folder holds.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../electron/cache/migrations';

const folder = new URL('../../electron/cache/migrations/', import.meta.url);
const files = readdirSync(folder)
  .filter((f) => /^\d{3}-[a-z0-9-]+\.ts$/.test(f))
  .sort();

describe('cache migrations, one per file', () => {
  it('holds nothing but the numbered files and the index', () => {
    expect(readdirSync(folder).sort()).toEqual([...files, 'index.ts'].sort());
  });

  it.each(files)('%s is the migration of its number', async (file) => {
    const { migration } = (await import(new URL(file, folder).href)) as { migration: { version: number } };
    expect(migration.version).toBe(Number(file.slice(0, 3)));
    expect(MIGRATIONS).toContain(migration);
  });

  it('applies every file once, in the order of their numbers, from 1 up', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(files.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(files.length);
  });
});
