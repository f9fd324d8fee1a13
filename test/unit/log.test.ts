import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, createRedactor, openLogFile } from '../../electron/log';
import { secretForms } from '../../electron/secret-forms';
import { TEST_NOW } from '../support/clock';

function capture() {
  const lines: string[] = [];
  const redactor = createRedactor();
  const log = createLogger(
    'main',
    (l) => lines.push(l),
    redactor,
    () => new Date('2026-11-22T00:00:00Z'),
  );
  return { lines, redactor, log };
}

describe('logger', () => {
  it('writes one JSON object per line with its name', () => {
    const { lines, log } = capture();
    log.child('api').info('request', { operation: 'payout.accounts', ms: 12 });
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '2026-11-22T00:00:00.000Z',
      level: 'info',
      logger: 'main.api',
      message: 'request',
      operation: 'payout.accounts',
      ms: 12,
    });
  });

  it('cuts known secrets and their base64 form from messages and fields', () => {
    const { lines, redactor, log } = capture();
    redactor.add('sk_live_4f9a8b7c');
    log.warn('failed with sk_live_4f9a8b7c', {
      body: { secret: 'sk_live_4f9a8b7c' },
      basic: Buffer.from('sk_live_4f9a8b7c').toString('base64'),
    });
    expect(lines[0]).not.toContain('sk_live_4f9a8b7c');
    expect(lines[0]).not.toContain(Buffer.from('sk_live_4f9a8b7c').toString('base64'));
    expect(lines[0]).toContain('[redacted]');
  });

  it('cuts Authorization headers and request hashes even when the secret is unknown', () => {
    const { lines, log } = capture();
    log.error('sent', {
      headers: { authorization: 'Basic dGVzdF9rZXk6dW5rbm93bg==' },
      raw: '{"hash":"' + 'ab'.repeat(64) + '"}',
    });
    expect(lines[0]).not.toContain('dGVzdF9rZXk6dW5rbm93bg==');
    expect(lines[0]).not.toContain('ab'.repeat(64));
  });

  it('logs errors by name and message, never their stack', () => {
    const { lines, log } = capture();
    const e = Object.assign(new Error('boom'), { code: 'E_TEST' });
    log.error('failed', { error: e });
    expect(JSON.parse(lines[0]!).error).toEqual({ name: 'Error', message: 'boom', code: 'E_TEST' });
    expect(lines[0]).not.toContain('at ');
  });
});

describe('redaction before serialising', () => {
  // Quotes and backslashes change when JSON escapes them; a redactor that ran on the serialised line missed them.
  const SECRETS = ['sk_"quoted"_secret', 'sk\\back\\slash', 'sk+/=?&%#ünï', 'sk line\nbreak'];

  it.each(SECRETS)('cuts %j in every form from messages, fields and nested errors', (secret) => {
    const { lines, redactor, log } = capture();
    redactor.add(secret);
    const forms = secretForms(secret);
    log.error(`echo ${secret}`, {
      raw: secret,
      forms,
      nested: { deeper: [{ error: new Error(`bad ${JSON.stringify({ secret })}`) }] },
      urlEncoded: `https://x.test/?s=${encodeURIComponent(secret)}`,
      basic: `Basic ${Buffer.from(`merchant_key:${secret}`).toString('base64')}`,
      basicOtherAlignment: Buffer.from(`k1:${secret}`).toString('base64url'),
    });
    const line = lines[0]!;
    expect(() => JSON.parse(line)).not.toThrow();
    for (const form of forms) expect(line).not.toContain(form);
    expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(JSON.parse(line).raw).toBe('[redacted]');
  });

  it('cuts a field named like a credential whatever its value', () => {
    const { lines, log } = capture();
    log.info('sent', { headers: { Authorization: 'token-shaped-but-unknown' }, body: { hash: 'short', secret: 'x' } });
    const parsed = JSON.parse(lines[0]!);
    expect(parsed.headers.Authorization).toBe('[redacted]');
    expect(parsed.body).toEqual({ hash: '[redacted]', secret: '[redacted]' });
  });
});

describe('secret forms', () => {
  it('finds the secret inside base64 whatever bytes come before it', () => {
    const secret = 'sk_live_4f9a8b7c';
    const forms = secretForms(secret);
    for (const prefix of ['', 'a', 'ab', 'abc', 'merchant_key:']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(prefix + secret + '|tail').toString(encoding);
        expect(
          forms.some((form) => encoded.includes(form)),
          `${prefix}+secret in ${encoding}`,
        ).toBe(true);
      }
    }
  });
});

describe('log file', () => {
  it('writes asynchronously, rotates by size and keeps a bounded number of 0600 files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-log-'));
    try {
      const file = await openLogFile(join(dir, 'logs', 'main.log'), { maxBytes: 2048, keep: 3 });
      const log = createLogger('main', file.stream, createRedactor(), () => new Date(TEST_NOW));
      const written: number[] = [];
      for (let i = 0; i < 200; i++) {
        log.info('line', { i, pad: 'x'.repeat(100) });
        written.push(i);
        // Let the asynchronous writer reach the disk now and then, so the size limit is seen between writes.
        if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await file.close();
      await new Promise((resolve) => setTimeout(resolve, 50)); // old files are removed after the roll, asynchronously
      const files = readdirSync(join(dir, 'logs')).sort();
      expect(files.length).toBeLessThanOrEqual(3);
      expect(files.length).toBeGreaterThan(1);
      const lines = files.flatMap((f) =>
        readFileSync(join(dir, 'logs', f), 'utf8')
          .split('\n')
          .filter(Boolean),
      );
      // The newest lines are all kept, in order, each a whole JSON object.
      const kept = lines.map((l) => (JSON.parse(l) as { i: number }).i).sort((a, b) => a - b);
      expect(kept.at(-1)).toBe(199);
      expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => 200 - kept.length + k));
      for (const f of files) expect(statSync(join(dir, 'logs', f)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a closed log file', () => {
  it('drops a line logged after close instead of throwing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-log-closed-'));
    try {
      const file = await openLogFile(join(dir, 'main.log'), { sync: true });
      const log = createLogger('main', file.stream, createRedactor(), () => new Date(TEST_NOW));
      log.info('before');
      await file.close();
      expect(() => log.info('after')).not.toThrow();
      expect(readFileSync(file.current(), 'utf8')).toContain('"message":"before"');
      expect(readFileSync(file.current(), 'utf8')).not.toContain('"message":"after"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
