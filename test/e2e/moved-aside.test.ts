/**
 * A file main moved aside is shown on whatever screen is open: a damaged cache found when the status bar first reads
 * it. The alert names where the file went; "Show in folder" asks the file manager for exactly that file (by the
 * notice's id, never a path from the page), and "Dismiss" removes the alert.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/core';
import { e2eSystemReady, startApp, type RunningApp } from './support';

const ready = await e2eSystemReady();

describe.runIf(ready)('files moved aside', () => {
  let app: RunningApp;
  const revealed: string[] = [];

  beforeAll(async () => {
    app = await startApp({
      exportTargets: { reveal: (file) => void revealed.push(file) },
      prepare: ({ dataDir }) => {
        mkdirSync(join(dataDir, 'cache'), { recursive: true });
        writeFileSync(join(dataDir, 'cache', 'sandbox.sqlite'), 'this is not a database');
      },
    });
  });
  afterAll(() => app?.close());

  it('shows the moved cache with its path, reveals it by id and dismisses the alert', async () => {
    const alert = app.page.getByRole('alert').filter({ hasText: 'Local cache moved aside' });
    await alert.waitFor();
    const [notice] = await ok(app.core, 'notices.list', undefined);
    expect(notice?.movedTo).toContain(join(app.dataDir, 'cache', 'sandbox.sqlite.corrupt-'));
    expect(await alert.textContent()).toContain(notice!.movedTo);

    await alert.getByRole('button', { name: 'Show in folder' }).click();
    await expect.poll(() => revealed).toEqual([notice!.movedTo]);

    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    expect(await ok(app.core, 'notices.list', undefined)).toEqual([]);
  });
});
