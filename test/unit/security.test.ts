import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  DEV_SERVER_CONTENT_SECURITY_POLICY,
  META_CONTENT_SECURITY_POLICY,
  denyAllPermissionChecks,
  denyAllPermissions,
  isAllowedExternalUrl,
  isAppUrl,
  shouldBlockRendererRequest,
} from '../../electron/security';

const ALLOW_LIST = ['payouts.example.com', 'docs.example.com'];
const BUILD_ORIGIN = 'app://console';
const DEV_ORIGIN = 'http://localhost:5173';

describe('content security policy', () => {
  it('allows only the app itself', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('relaxes inline script and style only in the dev-server variant', () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(META_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(DEV_SERVER_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'unsafe-inline'");
    expect(DEV_SERVER_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('is the policy in renderer/index.html, minus the header-only frame-ancestors', () => {
    const html = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
    expect(meta?.[1]).toBe(META_CONTENT_SECURITY_POLICY);
    expect(META_CONTENT_SECURITY_POLICY).toBe(CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'; ", ''));
  });
});

describe('isAllowedExternalUrl', () => {
  const hostile = [
    // script and document schemes, in any case and with parser-stripped characters
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    'javascript://payouts.example.com/%0aalert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'blob:https://payouts.example.com/0b4c4a2e-1111-2222-3333-444455556666',
    // local files and other schemes an OS hands to a program
    'file:///etc/passwd',
    'file://payouts.example.com/share/payouts.xlsx',
    'FILE:///C:/Windows/System32/calc.exe',
    'smb://payouts.example.com/share',
    'ftp://payouts.example.com/',
    'ms-msdt:/id PCWDiagnostic',
    'search-ms:query=calc&crumb=location:\\\\evil.io\\share',
    'payoutconsole://open?url=https://evil.io',
    'mailto:treasury@payouts.example.com',
    'tel:+911234567890',
    'chrome://settings',
    'about:blank',
    // not https, or https written so the parser has to repair it
    'http://payouts.example.com/',
    'HTTPS://payouts.example.com/',
    'Https://payouts.example.com/',
    'https:payouts.example.com',
    'https:/payouts.example.com',
    'https:\\\\payouts.example.com',
    '//payouts.example.com/',
    'https://PAYOUTS.example.com/',
    'https://payouts%2eexample.com/',
    'https://payouts.example.com:443/',
    // look-alike hosts
    'https://payouts.example.com.evil.io/',
    'https://payouts.example.com./',
    'https://payouts-example.com/',
    'https://sub.payouts.example.com/',
    'https://example.com/',
    'https://evil.io/payouts.example.com',
    'https://evil.io/?next=https://payouts.example.com/',
    'https://p\u0430youts.example.com/',
    'https://xn--pyouts-2nf.example.com/',
    'https://\uff50ayouts.example.com/',
    'https://payouts.example.com\u200b/',
    'https://payouts.example.com\u3002evil.io/',
    // credentials and backslash tricks
    'https://payouts.example.com@evil.io/',
    'https://user:pass@payouts.example.com/',
    'https://user@payouts.example.com/',
    'https://evil.io\\@payouts.example.com/',
    'https://payouts.example.com\\@evil.io/',
    'https://payouts.example.com\\.evil.io/',
    // other ports and addresses
    'https://payouts.example.com:8443/',
    'https://127.0.0.1/',
    'https://0x7f.0.0.1/',
    'https://[::1]/',
    // whitespace and control characters
    'https://payouts.example.com/\n',
    'https://payouts.example.com /',
    'https://payouts.example.com/\r\nSet-Cookie:x=1',
    ' https://payouts.example.com/',
    'https://payouts.example.com/\u0000',
    'https://payouts.example.com/\t',
    '',
    'not a url',
  ];

  it.each(hostile)('refuses %j', (url) => {
    expect(isAllowedExternalUrl(url, ALLOW_LIST)).toBe(false);
  });

  it('refuses at least thirty hostile URLs, and all of them', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
    expect(hostile.filter((url) => isAllowedExternalUrl(url, ALLOW_LIST))).toEqual([]);
  });

  it.each([
    'https://payouts.example.com',
    'https://payouts.example.com/',
    'https://docs.example.com/guide/payouts?tab=api#errors',
  ])('allows %j, an https URL on the allow-list', (url) => {
    expect(isAllowedExternalUrl(url, ALLOW_LIST)).toBe(true);
  });

  it('allows nothing with an empty allow-list', () => {
    expect(isAllowedExternalUrl('https://payouts.example.com/', [])).toBe(false);
  });

  it('reads allow-list entries case-insensitively', () => {
    expect(isAllowedExternalUrl('https://docs.example.com/', ['Docs.Example.COM'])).toBe(true);
  });
});

describe('isAppUrl', () => {
  it.each([
    [`${BUILD_ORIGIN}/index.html`, BUILD_ORIGIN],
    [`${BUILD_ORIGIN}/index.html#/payouts`, BUILD_ORIGIN],
    [`${BUILD_ORIGIN}/assets/index-abc123.js`, `${BUILD_ORIGIN}/`],
    [`${DEV_ORIGIN}/`, DEV_ORIGIN],
    [`${DEV_ORIGIN}/src/main.tsx?t=1`, DEV_ORIGIN],
  ])('accepts %s as part of %s', (url, origin) => {
    expect(isAppUrl(url, origin)).toBe(true);
  });

  it.each([
    [`${BUILD_ORIGIN}-evil/index.html`, BUILD_ORIGIN],
    ['file:///etc/passwd', BUILD_ORIGIN],
    ['file:///opt/Payout%20Console/resources/app.asar/out/renderer/index.html', BUILD_ORIGIN],
    ['app://console.evil.io/index.html', BUILD_ORIGIN],
    ['app://evil/index.html', BUILD_ORIGIN],
    ['app://console:8080/index.html', BUILD_ORIGIN],
    ['app://user@console/index.html', BUILD_ORIGIN],
    ['other://console/index.html', BUILD_ORIGIN],
    [`${DEV_ORIGIN}/`, BUILD_ORIGIN],
    ['https://payouts.example.com/', BUILD_ORIGIN],
    ['http://localhost:5174/', DEV_ORIGIN],
    ['http://127.0.0.1:5173/', DEV_ORIGIN],
    ['https://localhost:5173/', DEV_ORIGIN],
    ['http://localhost:5173.evil.io/', DEV_ORIGIN],
    ['http://user@localhost:5173/', DEV_ORIGIN],
    ['ws://localhost:5173/', DEV_ORIGIN],
    ['javascript:alert(1)', DEV_ORIGIN],
    ['data:text/html,hi', DEV_ORIGIN],
    [`${DEV_ORIGIN}/\n`, DEV_ORIGIN],
    [`${DEV_ORIGIN}/`, 'not a url'],
    [`${DEV_ORIGIN}/`, 'data:text/html,x'],
  ])('refuses %s for %s', (url, origin) => {
    expect(isAppUrl(url, origin)).toBe(false);
  });
});

describe('shouldBlockRendererRequest', () => {
  it.each([
    [`${BUILD_ORIGIN}/index.html`, BUILD_ORIGIN],
    [`${BUILD_ORIGIN}/assets/index-abc123.css`, BUILD_ORIGIN],
    ['data:image/png;base64,iVBORw0KGgo=', BUILD_ORIGIN],
    ['blob:app://console/7d3c1f9e-0000-4000-8000-000000000000', BUILD_ORIGIN],
    ['devtools://devtools/bundled/devtools_app.html', DEV_ORIGIN],
    [`${DEV_ORIGIN}/@vite/client`, DEV_ORIGIN],
    ['ws://localhost:5173/?token=abc', DEV_ORIGIN],
  ])('lets the renderer load %s (app at %s)', (url, origin) => {
    expect(shouldBlockRendererRequest(url, origin)).toBe(false);
  });

  it.each([
    ['https://api.payouts.example.com/v1/payouts', BUILD_ORIGIN],
    ['http://127.0.0.1:4010/payouts', BUILD_ORIGIN],
    ['http://127.0.0.1:4010/ai', DEV_ORIGIN],
    ['ws://127.0.0.1:4010/', BUILD_ORIGIN],
    ['wss://evil.io/socket', BUILD_ORIGIN],
    ['ws://localhost:9229/inspector', DEV_ORIGIN],
    ['wss://localhost:5173/', DEV_ORIGIN],
    ['http://localhost:5174/', DEV_ORIGIN],
    [`${DEV_ORIGIN}/`, BUILD_ORIGIN],
    ['file:///etc/passwd', BUILD_ORIGIN],
    [`${BUILD_ORIGIN}-evil/index.html`, BUILD_ORIGIN],
    ['ftp://payouts.example.com/', BUILD_ORIGIN],
    ['chrome-extension://abcdef/script.js', BUILD_ORIGIN],
    ['https://fonts.googleapis.com/css?family=Inter', DEV_ORIGIN],
    ['not a url', BUILD_ORIGIN],
  ])('blocks %s (app at %s)', (url, origin) => {
    expect(shouldBlockRendererRequest(url, origin)).toBe(true);
  });
});

describe('permissions', () => {
  it('denies every request and check', () => {
    const callback = vi.fn();
    denyAllPermissions({}, 'media', callback);
    denyAllPermissions({}, 'notifications', callback);
    expect(callback.mock.calls).toEqual([[false], [false]]);
    expect(denyAllPermissionChecks()).toBe(false);
  });
});
