/**
 * Content policy and URL guards, as pure values and functions so they run in tests without Electron.
 *
 * "App origin" below means where the renderer's own files come from: the dev server's origin (`http://localhost:5173`)
 * during development, or `app://console` (app-protocol.ts) in a build.
 */
const POLICY_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
];

/** Sent as a response header by main. */
export const CONTENT_SECURITY_POLICY = POLICY_DIRECTIVES.join('; ');

/**
 * The same policy for the `<meta>` tag in renderer/index.html, a second layer under the header app-protocol.ts sends
 * (and the only one where a page is served without it, as the test harness does). Browsers ignore `frame-ancestors`
 * in a meta policy and warn about it, so the meta leaves it out.
 */
export const META_CONTENT_SECURITY_POLICY = POLICY_DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors')).join(
  '; ',
);

/**
 * The dev server injects the React Fast Refresh preamble as an inline script and CSS as `<style>` tags, so only
 * there inline script and style are allowed. Never used by a packaged app.
 */
export const DEV_SERVER_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  "script-src 'self' 'unsafe-inline'",
).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

// Only printable ASCII without backslash: the WHATWG parser drops tabs and newlines ("java\tscript:" parses as
// "javascript:"), trims spaces and controls, maps invisible characters in host names away, and reads a backslash as a
// slash where some OS URL handlers do not. Chromium hands us URLs already percent-encoded, so nothing legitimate fails.
const CANONICAL_URL_TEXT = /^[\x21-\x5b\x5d-\x7e]+$/;

function parseUrl(raw: string): URL | null {
  if (!CANONICAL_URL_TEXT.test(raw)) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** Is `url` one of the app's own pages or files? Used to allow navigation and IPC senders. */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const target = parseUrl(url);
  const app = parseUrl(appOrigin);
  if (!target || !app) return false;
  if (target.username || target.password) return false;
  // A custom scheme has no origin in the URL parser's sense ("null"), so scheme and host are compared themselves.
  if (app.protocol === 'app:') return target.protocol === 'app:' && target.host === app.host && target.port === '';
  if (app.protocol !== 'http:' && app.protocol !== 'https:') return false;
  return target.origin === app.origin;
}

/**
 * May `url` be handed to the operating system's browser? Only `https:` on the default port, to a host spelled exactly
 * as on the allow-list, with no credentials, written the way the parser reads it: anything the parser would have to
 * repair (an uppercase scheme or host, a percent-encoded or full-width host, a missing slash) is refused rather than
 * trusted in its repaired form. Look-alike hosts (`payouts.example.com.evil.io`, IDN homographs) never equal an entry.
 */
export function isAllowedExternalUrl(url: string, allowList: readonly string[]): boolean {
  const target = parseUrl(url);
  if (!target || target.protocol !== 'https:') return false;
  if (target.username || target.password || target.port) return false;
  const authority = `https://${target.hostname}`;
  if (!url.startsWith(authority) || !/^([/?#]|$)/.test(url.slice(authority.length))) return false;
  return allowList.some((host) => host.toLowerCase() === target.hostname);
}

// Schemes Chromium uses for the page itself rather than the network: inline images (allowed by the CSP), object URLs,
// and the DevTools front end in development.
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'devtools:']);

/**
 * Should the renderer session cancel this request? The renderer loads only its own files; every call to the API goes
 * through main over IPC, so any other request from the renderer is a bug or an injection.
 */
export function shouldBlockRendererRequest(url: string, appOrigin: string): boolean {
  if (isAppUrl(url, appOrigin)) return false;
  const target = parseUrl(url);
  if (!target) return true;
  if (LOCAL_SCHEMES.has(target.protocol)) return false;
  const app = parseUrl(appOrigin);
  // Vite's hot-reload socket lives on the dev server's host and port.
  if (app?.protocol === 'http:' && target.protocol === 'ws:') return target.host !== app.host;
  if (app?.protocol === 'https:' && target.protocol === 'wss:') return target.host !== app.host;
  return true;
}

/** A console for payouts needs no camera, microphone, location, notifications, clipboard reads or device access. */
export function denyAllPermissions(_webContents: unknown, _permission: string, callback: (granted: boolean) => void) {
  callback(false);
}

export function denyAllPermissionChecks(): boolean {
  return false;
}
