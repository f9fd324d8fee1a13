/** The app:// handler's decisions, on a real folder: what it serves, with which headers, and what it refuses. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY, APP_ORIGIN, appFilePath, serveAppFile } from '../../electron/app-protocol';
import { CONTENT_SECURITY_POLICY, isAppUrl } from '../../electron/security';

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'pc-app-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Payout Console</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'export {};');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'notes.txt'), 'not a type we serve');
  writeFileSync(join(base, 'secrets.json'), '{"secret":"outside"}');
  symlinkSync(join(base, 'secrets.json'), join(root, 'assets', 'linked.json'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('app:// handler', () => {
  it.each([
    [APP_ENTRY, 'text/html; charset=utf-8', '<!doctype html>'],
    [`${APP_ORIGIN}/`, 'text/html; charset=utf-8', '<!doctype html>'],
    [`${APP_ORIGIN}/assets/index-abc.js`, 'text/javascript; charset=utf-8', 'export {};'],
    [`${APP_ORIGIN}/assets/index-abc.css?v=1#x`, 'text/css; charset=utf-8', 'body{}'],
  ])('serves %s as %s with the policy header', async (url, type, start) => {
    const answer = await serveAppFile('GET', url, root);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      'Content-Type': type,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
    });
    expect(answer.body?.toString('utf8').startsWith(start)).toBe(true);
  });

  it.each([
    `${APP_ORIGIN}/../secrets.json`,
    `${APP_ORIGIN}/%2e%2e/secrets.json`,
    `${APP_ORIGIN}/assets/%2e%2e%2f%2e%2e%2fsecrets.json`,
    `${APP_ORIGIN}/assets/..%5c..%5csecrets.json`,
    `${APP_ORIGIN}/assets%00/index-abc.js`,
    `${APP_ORIGIN}/assets/linked.json`,
    `${APP_ORIGIN}/assets/notes.txt`,
    `${APP_ORIGIN}/assets/missing.js`,
    `${APP_ORIGIN}/assets`,
    `${APP_ORIGIN}//etc/passwd`,
    `${APP_ORIGIN}/%E0%A4%A`,
    'app://evil/index.html',
    'app://user@console/index.html',
    `file://${root}/index.html`,
  ])('answers 404 for %s, with nothing from outside the folder', async (url) => {
    const answer = await serveAppFile('GET', url, root);
    expect(answer.status).toBe(404);
    expect(answer.body).toBeNull();
  });

  it('answers only GET and HEAD', async () => {
    expect((await serveAppFile('POST', APP_ENTRY, root)).status).toBe(405);
    const head = await serveAppFile('HEAD', APP_ENTRY, root);
    expect([head.status, head.body]).toEqual([200, null]);
  });

  it('names files relative to the folder, decoded once', () => {
    expect(appFilePath(`${APP_ORIGIN}/assets/a%20b.js`)).toBe('assets/a b.js');
    expect(appFilePath(`${APP_ORIGIN}/assets/%252e%252e/x.js`)).toBe('assets/%2e%2e/x.js');
  });

  it('is the origin the sender check and navigation guard accept, and nothing beside it', () => {
    expect(isAppUrl(APP_ENTRY, APP_ORIGIN)).toBe(true);
    expect(isAppUrl(`${APP_ORIGIN}/assets/index-abc.js`, APP_ORIGIN)).toBe(true);
    expect(isAppUrl('app://console.evil/index.html', APP_ORIGIN)).toBe(false);
    expect(isAppUrl(`file://${root}/index.html`, APP_ORIGIN)).toBe(false);
  });
});
