/**
 * docs/contributing/adding-an-ipc-channel.md stays true: the files and names it quotes exist, its worked example
 * (`views.setDefault`) is in every file a step sends the reader to, and each step is how every domain is wired.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../shared/ipc/channels';
import { declared, recipeClaims, repoRoot, sources } from '../support/docs';

const PAGE = 'docs/contributing/adding-an-ipc-channel.md';
const { files, names } = recipeClaims(PAGE);
const all = sources();
const text = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

describe('recipe: adding an IPC channel', () => {
  it.each(files)('names %s, which exists', (file) => {
    expect(existsSync(join(repoRoot, file))).toBe(true);
  });
  it.each(names)('names %s, which the code has', (name) => {
    expect(declared(all, name)).toBe(true);
  });

  // Step by step, where the worked example is: a step whose file lacks it sends the reader to the wrong place.
  it.each([
    ['shared/ipc/channels.ts', "'views.setDefault'"],
    ['shared/ipc/views.ts', "'views.setDefault'"],
    ['shared/ipc/views.ts', "satisfies DomainSchemas<'views'>"],
    ['shared/ipc/contract.ts', '...viewsChannels'],
    ['electron/ipc/views.ts', "'views.setDefault'"],
    ['electron/ipc/views.ts', 'Pick<IpcHandlers'],
    ['electron/core.ts', '...createViewHandlers('],
    ['renderer/src/ui/saved-views.ts', "useIpcMutation('views.setDefault'"],
    ['test/security/support.ts', "'views.setDefault'"],
    ['test/security/secret-containment.test.ts', "'views.setDefault'"],
    ['test/e2e/smoke.test.ts', 'api.views.setDefault('],
    ['test/integration/saved-views.test.ts', "'views.setDefault'"],
  ])('%s holds %s', (file, snippet) => {
    expect(files, `${file} is not named by the recipe`).toContain(file);
    expect(text(file)).toContain(snippet);
  });

  it('is how every domain is wired: each schema map is in the contract, each handler factory in the core', () => {
    const contract = text('shared/ipc/contract.ts');
    const maps = [...all].flatMap(([file, t]) =>
      file.startsWith('shared/ipc/') ? [...t.matchAll(/export const (\w+Channels) = \{/g)].map((m) => m[1]!) : [],
    );
    expect(maps.length).toBeGreaterThan(10);
    for (const map of maps) expect(contract, map).toContain(`...${map},`);

    const core = text('electron/core.ts');
    const factories = [...all].flatMap(([file, t]) =>
      file.startsWith('electron/ipc/')
        ? [...t.matchAll(/export function (create\w+Handlers)\(/g)].map((m) => m[1]!)
        : [],
    );
    expect(factories.length).toBeGreaterThan(10);
    for (const factory of factories) expect(core, factory).toContain(`...${factory}(`);
  });

  it('needs no change in the preload: it names no channel, and builds window.api from the list', () => {
    const preload = text('electron/preload.ts');
    expect(preload).toContain('createIpcApi(');
    for (const channel of IPC_CHANNELS) expect(preload).not.toContain(`'${channel}'`);
  });
});
