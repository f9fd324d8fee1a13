import { describe, expect, it } from 'vitest';
import { addressWarning } from '../../renderer/src/settings/address-warning';

describe('profile address warnings', () => {
  it('names the punycode form of a host with non-ASCII letters', () => {
    expect(addressWarning('https://аpple.com', undefined)).toMatch(/saved as xn--pple-43d\.com/);
  });

  it('says the stored secret goes when the service changes, and not when only the path does', () => {
    expect(addressWarning('https://other.example.in', 'https://api.example.in')).toMatch(
      /removes the stored secret, which was entered for https:\/\/api\.example\.in/,
    );
    expect(addressWarning('https://api.example.in/v2', 'https://api.example.in')).toBeUndefined();
  });

  it('says nothing about text that is not an address yet, or an ordinary new one', () => {
    expect(addressWarning('https://', undefined)).toBeUndefined();
    expect(addressWarning('https://api.example.in', undefined)).toBeUndefined();
  });
});
