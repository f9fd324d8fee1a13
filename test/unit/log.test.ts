import { describe, expect, it } from 'vitest';
import { createLogger, createRedactor } from '../../electron/log';

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
