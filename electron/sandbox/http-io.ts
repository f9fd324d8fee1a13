/** Reading request bodies with a cap, and writing JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Body {
  text: string;
  /** More than the cap arrived; `text` is then empty. */
  tooLarge: boolean;
}

/** Reads the whole body but keeps at most `cap` bytes, so an oversized upload is drained, not buffered. */
export function readBody(req: IncomingMessage, cap: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(
        size > cap ? { text: '', tooLarge: true } : { text: Buffer.concat(chunks).toString('utf8'), tooLarge: false },
      ),
    );
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  truncate = false,
): void {
  let text = JSON.stringify(body);
  // A malformed-body fault: a cut that always leaves the JSON unfinished.
  if (truncate) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  // Counted, not copied: a settlement page is 600 KB, and copying it into a Buffer was an eighth of the sandbox's
  // busy time in a profile of a sync.
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text, 'utf8')),
    ...headers,
  });
  res.end(text, 'utf8');
}

/** Parses a JSON body; an empty body is `{}`, since every operation's fields may all be optional. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: `body is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}
