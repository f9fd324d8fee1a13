/** Maps a request path to a file inside the build folder, or to nothing: no traversal, no symlink escape. */
import { realpathSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** `pathname` as the URL parser left it (still percent-encoded); null when it names nothing servable. */
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // A backslash is a separator on Windows, a NUL truncates paths in native code: neither belongs in a file name here.
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const realRoot = realpathSync(root);
  const candidate = resolve(realRoot, `.${decoded}`);
  if (!candidate.startsWith(realRoot + sep)) return null;
  try {
    const real = realpathSync(candidate);
    return real.startsWith(realRoot + sep) && statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}
