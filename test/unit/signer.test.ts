import { describe, expect, it } from 'vitest';
import { canonicalString, signBody, verifyBody } from '../../electron/api/signer';

describe('canonical string', () => {
  it('is the documented example', () => {
    expect(canonicalString({ key: 'k', id: 'o1', amount: 100 }, 'SECRET')).toBe('100|o1|k|SECRET');
  });

  it('drops hash, null, objects and arrays, and keeps booleans', () => {
    const body = { key: 'k', hash: 'x', notes: { udf1: 'a' }, tags: ['t'], missing: null, active: false, cycle: 12 };
    expect(canonicalString(body, 's')).toBe('false|12|k|s');
  });

  it('orders field names by UTF-8 bytes (upper case before lower case, byte-wise for non-ASCII)', () => {
    expect(canonicalString({ b: '2', B: '1', a: '3', é: '5', z: '4' }, 's')).toBe('1|3|2|4|5|s');
  });
});

describe('signBody', () => {
  // Fixed vectors: computed independently from the documented canonical text.
  const body = { key: 'test_key', id: 'ord_0001', amount: 2500, hash: 'ignored' };
  const text = '2500|ord_0001|test_key|test_secret';

  it('sha512 is lowercase hex of the canonical text (fixed vector)', () => {
    expect(canonicalString(body, 'test_secret')).toBe(text);
    expect(signBody(body, 'test_secret')).toBe(
      'b6b246cb823c918b7e93d2e24d840a7167b1d3315a0d5b078a6fd2da7e1b0b3c4b8fe21a6d005f977b77794a20af78725daa817e630bc759d0ea635871016093',
    );
  });

  it('hmac-sha256 is keyed by the secret over the same text (fixed vector)', () => {
    expect(signBody(body, 'test_secret', 'hmac-sha256')).toBe(
      '5e33a1c6f0b0564386d3bdd8ca0c825e37bfb3a6bf7cb8dfc8d815267c5b5f12',
    );
  });

  it('changes with any value, any key name and the secret', () => {
    const base = signBody(body, 'test_secret');
    expect(signBody({ ...body, amount: 2501 }, 'test_secret')).not.toBe(base);
    expect(signBody(body, 'test_secret2')).not.toBe(base);
    expect(signBody({ ...body, extra: 'x' }, 'test_secret')).not.toBe(base);
  });

  it('verifies its own signature, any case, and nothing else', () => {
    const signed = { ...body, hash: signBody(body, 'test_secret') };
    expect(verifyBody(signed, 'test_secret')).toBe(true);
    expect(verifyBody({ ...signed, hash: signed.hash.toUpperCase() }, 'test_secret')).toBe(true);
    expect(verifyBody(signed, 'other')).toBe(false);
    expect(verifyBody({ ...signed, amount: 1 }, 'test_secret')).toBe(false);
    expect(verifyBody({ ...signed, hash: 'null' }, 'test_secret')).toBe(false);
    expect(verifyBody({ key: 'k' }, 'test_secret')).toBe(false);
  });
});
