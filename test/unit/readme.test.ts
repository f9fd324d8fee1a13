/** The README's operation table is a promise; keep it true to the registry. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_NAMES } from '../../shared/api/operations';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const rows = readme.split('\n').filter((l) => l.startsWith('| ') && /`[/{]/.test(l));

describe('README operations table', () => {
  it.each(OPERATION_NAMES)('lists %s with its path, auth and retry safety', (name) => {
    const spec = OPERATIONS[name];
    const path = spec.host === 'ai' ? `{ai_url}${spec.path}` : spec.path;
    const row = rows.find((r) => r.includes('`' + path + '`'));
    expect(row, `no README row for ${path}`).toBeDefined();
    const cells = row!.split('|').map((c) => c.trim());
    expect(cells[3]).toMatch(spec.auth === 'body' ? /^body$/ : /^Basic/);
    expect(cells[3]!.includes('key/hash')).toBe(spec.auth === 'basic' && spec.credentials === 'key+hash');
    expect(cells[4]).toBe(spec.safe ? 'yes' : 'no');
  });

  it('has no row for an operation that does not exist', () => {
    expect(rows).toHaveLength(OPERATION_NAMES.length);
  });
});
