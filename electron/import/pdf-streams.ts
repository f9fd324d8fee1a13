/**
 * How far a PDF's FlateDecode streams inflate, counted with Node's zlib before PDF.js reads them (pdf-worker.ts).
 * PDF.js inflates a content stream in JavaScript and runs its operators at a few megabytes a second, so a stream
 * that inflates to gigabytes would hold the reading thread for hours before its heap limit stopped it; native
 * inflate counts the same bytes in a fraction of a second and stops at the limit. Every `stream` keyword's data is
 * inflated from there on (zlib stops at the end of the compressed data, so neither `/Length` nor an `endstream`
 * hidden in the data can shorten the count), and what inflates is inflated again, for a stream compressed twice.
 * Data that is not zlib (an image, another filter, an encrypted file's streams) counts nothing here: the thread's
 * heap limit and the text bound are what stop those.
 */
import { constants, inflateSync } from 'node:zlib';

const STREAM = /stream\r?\n/g;

/** The bytes the file's streams inflate to, all together; `limit + 1` as soon as they pass `limit`. */
export function pdfInflatedBytes(bytes: Uint8Array, limit: number): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM)) {
    // `endstream` also ends in "stream"; only the keyword after a dictionary starts data.
    if (!/>>\s*$/.test(text.slice(Math.max(0, match.index - 16), match.index))) continue;
    let data = bytes.subarray(match.index + match[0].length);
    for (;;) {
      let inflated: Buffer;
      try {
        inflated = inflateSync(data, {
          // A stream cut short still counts what it inflated to, as PDF.js reads it.
          finishFlush: constants.Z_SYNC_FLUSH,
          maxOutputLength: limit - total + 1,
        });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return limit + 1;
        break;
      }
      total += inflated.length;
      if (inflated.length === 0) break;
      data = inflated;
    }
  }
  return total;
}
