/**
 * The worker thread that reads a PDF statement's text with pdfjs-dist (Mozilla's PDF.js, legacy build for Node).
 * PDF.js inflates a page's content streams as it reads them, so a small hostile file can expand to gigabytes: here
 * that costs a thread started with a heap limit (pdf-text.ts), not the main process, and the file's streams are
 * first counted as they inflate (pdf-streams.ts) against `maxInflatedBytes`. The worker then sends the number of
 * pages, then each page's text pieces, and stops once the text passes `maxChars`; the caller groups the pieces
 * into rows. The password, when the file has one, is handed to PDF.js and kept nowhere else.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import { pdfInflatedBytes } from './pdf-streams';

export interface PdfWorkerData {
  bytes: Uint8Array;
  password: string | undefined;
  maxInflatedBytes: number;
  /** Text characters (an empty text item counts as one) past which the read stops. */
  maxChars: number;
}

/** A run of text on a page: its left and right edges and baseline, in PDF points. */
export interface Piece {
  x: number;
  end: number;
  y: number;
  text: string;
}

export type PdfWorkerMessage =
  | { type: 'pages'; count: number }
  | { type: 'page'; pieces: Piece[] }
  | { type: 'done' }
  | { type: 'password'; reason: 'needed' | 'wrong' }
  | { type: 'inflates-too-far' }
  | { type: 'too-much-text' }
  | { type: 'failed'; error: string };

const port = parentPort!;
const post = (message: PdfWorkerMessage) => port.postMessage(message);
const { bytes, password, maxInflatedBytes, maxChars } = workerData as PdfWorkerData;

try {
  if (pdfInflatedBytes(bytes, maxInflatedBytes) > maxInflatedBytes) post({ type: 'inflates-too-far' });
  else await readText();
} catch (e) {
  post({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
} finally {
  port.close();
}

async function readText(): Promise<void> {
  const pdfjs: typeof PdfJs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: bytes,
    password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (e) {
    if (!(e instanceof Error && e.name === 'PasswordException')) throw e;
    const code = (e as Error & { code?: number }).code;
    post({ type: 'password', reason: code === pdfjs.PasswordResponses.INCORRECT_PASSWORD ? 'wrong' : 'needed' });
    return;
  }
  post({ type: 'pages', count: doc.numPages });
  let chars = 0;
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const pieces: Piece[] = [];
    // Streamed, so the count stops a page of endless text operators after its first chunks, not once it is all read.
    const reader = page.streamTextContent().getReader() as ReadableStreamDefaultReader<{
      items: (TextItem | TextMarkedContent)[];
    }>;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      for (const item of chunk.value.items) {
        const text = 'str' in item ? item.str : '';
        chars += Math.max(1, text.length);
        if (chars > maxChars) {
          post({ type: 'too-much-text' });
          return;
        }
        if (!('str' in item) || text.trim() === '') continue;
        const x = item.transform[4] as number;
        pieces.push({ x, end: x + item.width, y: item.transform[5] as number, text });
      }
    }
    page.cleanup();
    post({ type: 'page', pieces });
  }
  post({ type: 'done' });
}
