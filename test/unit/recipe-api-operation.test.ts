/**
 * docs/contributing/adding-an-api-operation.md stays true: the files and names it quotes exist, its worked example
 * (`webhook.list`) is in every file a step sends the reader to, and each step is how every operation is wired.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_NAMES } from '../../shared/api/operations';
import { declared, recipeClaims, repoRoot, sources } from '../support/docs';

const PAGE = 'docs/contributing/adding-an-api-operation.md';
const { files, names } = recipeClaims(PAGE);
const all = sources();
const text = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

describe('recipe: adding an API operation', () => {
  it.each(files)('names %s, which exists', (file) => {
    expect(existsSync(join(repoRoot, file))).toBe(true);
  });
  it.each(names)('names %s, which the code has', (name) => {
    expect(declared(all, name)).toBe(true);
  });

  it.each([
    ['shared/api/webhooks.ts', 'export const webhookListRequest'],
    ['shared/api/webhooks.ts', 'export const webhookListResponse'],
    ['shared/api/operations.ts', "'webhook.list': {"],
    ['electron/api/webhooks.ts', "client.call('webhook.list'"],
    ['electron/api/index.ts', 'webhooksApi(client)'],
    ['electron/sandbox/handlers/webhooks.ts', "'webhook.list': ("],
    ['electron/sandbox/dispatch.ts', '...webhookHandlers,'],
    ['electron/sandbox/dispatch.ts', 'SHOWS_REQUEST_ID'],
    ['test/integration/contract.test.ts', "'webhook.list': {"],
    ['test/integration/sandbox-contract.test.ts', "name: 'webhook.list'"],
    ['test/unit/schemas/operations.test.ts', "'webhook.list':"],
  ])('%s holds %s', (file, snippet) => {
    expect(files, `${file} is not named by the recipe`).toContain(file);
    expect(text(file)).toContain(snippet);
  });

  it('names every field of an operation the registry has', () => {
    const page = text(PAGE);
    for (const field of ['host', 'path', 'auth', 'credentials', 'safe', 'request', 'response', 'pathParams']) {
      expect(page, field).toContain(`\`${field}\``);
    }
    expect(Object.keys(OPERATIONS['webhook.update'])).toEqual(
      expect.arrayContaining(['title', 'host', 'path', 'auth', 'credentials', 'safe', 'afterUnknownOutcome']),
    );
  });

  it('is how every operation is wired: each sandbox handler group is in HANDLERS, each client group in the API', () => {
    const dispatch = text('electron/sandbox/dispatch.ts');
    const groups = [...all].flatMap(([file, t]) =>
      file.startsWith('electron/sandbox/handlers/')
        ? [...t.matchAll(/export const (\w+Handlers): Handlers</g)].map((m) => m[1]!)
        : [],
    );
    expect(groups.length).toBeGreaterThan(4);
    for (const group of groups) expect(dispatch, group).toContain(`...${group},`);

    const api = text('electron/api/index.ts');
    for (const [file, t] of all) {
      if (!file.startsWith('electron/api/')) continue;
      for (const [, fn] of t.matchAll(/export function (\w+Api)\(client: ApiClient\)/g)) {
        expect(api, fn).toContain(`${fn!}(client)`);
      }
    }
  });

  it('says truly that the tests write the count of operations down', () => {
    const count = String(OPERATION_NAMES.length);
    expect(text('test/unit/schemas/operations.test.ts')).toContain(`toBe(${count})`);
    expect(text('test/integration/sandbox-contract.test.ts')).toContain(`toHaveLength(${count})`);
    expect(text('test/integration/contract.test.ts')).toContain(`toHaveLength(${count})`);
  });
});
