/**
 * The renderer's own files, served on `app://console/` instead of `file://` (Electron's security checklist, item 18):
 * a page from a custom scheme has an origin of its own, reads nothing but what this handler answers, and `file://`
 * pages get no privileges (the GrantFileProtocolExtraPrivileges fuse is off). Pure Node, so it is tested without
 * Electron; electron/main.ts registers the scheme and hands each request here.
 *
 * Only GET of a file under the renderer folder, with a known type, is answered: the path is decoded once, must not
 * hold a backslash, NUL or a ".." segment, and must still be inside the folder after symbolic links are resolved.
 */
import { readFile, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './security';

export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/**
 * For `protocol.registerSchemesAsPrivileged`: a standard, secure scheme (relative URLs, an origin, module scripts,
 * the page counts as a secure context). No CORS bypass, no service workers, no streaming of media from elsewhere.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true };

/** What the built renderer holds. Anything else is not ours to serve. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function refused(status: number): AppResponse {
  return { status, headers: { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }, body: null };
}

/** The file a request names, relative to the renderer folder, or null for anything this scheme does not serve. */
export function appFilePath(requestUrl: string): string | null {
  if (!URL.canParse(requestUrl)) return null;
  const url = new URL(requestUrl);
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path === '/' || path === '') path = '/index.html';
  if (/[\\\0]/.test(path)) return null;
  const segments = path.split('/').slice(1);
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return null;
  return segments.join('/');
}

/** The answer to one request of the renderer's page. */
export async function serveAppFile(method: string, requestUrl: string, rendererRoot: string): Promise<AppResponse> {
  if (method !== 'GET' && method !== 'HEAD') return refused(405);
  const relative = appFilePath(requestUrl);
  const type = relative === null ? undefined : TYPES[extname(relative).toLowerCase()];
  if (relative === null || type === undefined) return refused(404);
  try {
    const root = await realpath(rendererRoot);
    const file = await realpath(join(root, ...relative.split('/')));
    if (!file.startsWith(root + sep)) return refused(404);
    const body = await readFile(file);
    return { status: 200, headers: { ...HEADERS, 'Content-Type': type }, body: method === 'HEAD' ? null : body };
  } catch {
    return refused(404);
  }
}
