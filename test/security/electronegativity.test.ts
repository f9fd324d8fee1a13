/**
 * The CI scan gate (electronegativity.mjs) fails when it should. Each case scans a scratch copy of electron/ with one
 * deliberate problem added; the repository itself is scanned by the CI step, which must pass.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'test/security/electronegativity.mjs');
const scratch: string[] = [];

/** Copies electron/ to a temporary folder, lets `change` spoil it, and runs the scan over the copy. */
async function scanCopy(change: (dir: string) => void): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pc-eng-'));
  scratch.push(dir);
  cpSync(join(ROOT, 'electron'), join(dir, 'electron'), { recursive: true });
  change(join(dir, 'electron'));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SCRIPT, '--input', join(dir, 'electron'), '--out', join(dir, 'results')],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: stdout + stderr });
      },
    );
  });
}

afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe.concurrent('electronegativity gate', { timeout: 60_000 }, () => {
  it('fails on a window with nodeIntegration: true (HIGH)', async () => {
    const { code, output } = await scanCopy((dir) =>
      writeFileSync(
        join(dir, 'evil-window.ts'),
        "import { BrowserWindow } from 'electron';\n\n" +
          'export const open = () => new BrowserWindow({ webPreferences: { nodeIntegration: true } });\n',
      ),
    );
    expect(output).toMatch(/HIGH\s+\S+\s+CONTEXT_ISOLATION_JS_CHECK\s+evil-window\.ts:3/);
    expect(output).toMatch(/NODE_INTEGRATION_JS_CHECK\s+evil-window\.ts:3/);
    expect(output).toMatch(/FAILED: .*HIGH\/MEDIUM/);
    expect(code).toBe(1);
  });

  it('catches an insecure window setting in main.ts, and a suppression with no reason', async () => {
    const { code, output } = await scanCopy((dir) => {
      const main = join(dir, 'main.ts');
      const text = readFileSync(main, 'utf8');
      expect(text).toContain('      sandbox: true,\n');
      writeFileSync(main, text.replace('      sandbox: true,\n', '      sandbox: false,\n'));
      writeFileSync(
        join(dir, 'quiet.ts'),
        "import { shell } from 'electron';\n\n" +
          'export const go = (u: string) => shell.openExternal(u); // eng-disable OPEN_EXTERNAL_JS_CHECK\n',
      );
    });
    expect(output).toMatch(/MEDIUM\s+\S+\s+SANDBOX_JS_CHECK\s+main\.ts:\d+/);
    expect(output).toMatch(/quiet\.ts:3\s+OPEN_EXTERNAL_JS_CHECK\s+\(no reason\)/);
    expect(output).toMatch(/FAILED: 1 HIGH\/MEDIUM finding\(s\); 1 eng-disable comment\(s\) without a reason/);
    expect(code).toBe(1);
  });
});
