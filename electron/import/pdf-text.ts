/**
 * The rows of a PDF e-statement read from its text layer: pdf-worker.ts reads each page's text pieces with PDF.js in
 * a worker thread, and here they are grouped into lines by their baseline, and the pieces of a line into cells by
 * the gaps between them. Once a line is a statement's header (`isHeader`), later lines put each cell under the
 * header cell it overlaps most, so an empty withdrawal cell stays empty instead of shifting the deposit left.
 * A repeated header on a later page and a "Page n of m" line are dropped. The password, when the file has one,
 * is handed to the worker for PDF.js and kept nowhere else.
 */
import type { SheetCell } from '../../shared/beneficiary-import';
import { startModuleWorker } from '../module-worker';
import type { Piece, PdfWorkerData, PdfWorkerMessage } from './pdf-worker';

export class PdfPasswordError extends Error {
  override name = 'PdfPasswordError';
  constructor(readonly reason: 'needed' | 'wrong') {
    super(reason);
  }
}

export interface PdfLimits {
  maxRows: number;
  maxPages: number;
  /** Thrown (by the caller's sentence) when a limit is passed. */
  tooBig: (sentence: string) => never;
  rowsSentence: string;
  /** How long the reading thread may take, in milliseconds (PDF_MAX_READ_MS unless a test says otherwise). */
  maxReadMs?: number;
}

/**
 * The most a statement's streams may inflate to, all together: 5,000 lines (IMPORT_MAX_ROWS) printed by LibreOffice,
 * 190 pages, inflate to 4.3 MB: this is about 15 times that. PDF.js runs a content stream's operators at one to
 * three megabytes a second, so this also bounds how long a hostile file holds the reading thread (minutes at worst:
 * docs/design/security.md).
 */
export const PDF_MAX_INFLATED_MB = 64;

/** The most text a statement's PDF may hold, in characters: the same 5,000 lines held 488,321. */
export const PDF_MAX_TEXT_CHARS = 2_000_000;

/**
 * The reading thread's heap (V8's old generation). PDF.js holds the file's parsed objects, its fonts and one page's
 * text, all bounded above; a quarter of a gigabyte is room for those several times over, and a file that still
 * needs more (an encrypted one, whose streams the count cannot inflate) ends the thread, not the main process,
 * which shares the machine with the window and a sync.
 */
export const PDF_WORKER_HEAP_MB = 256;

/**
 * How long the reading thread may read one file. The bounds above cap what a file can inflate to and hold, not how
 * long PDF.js runs its operators: 50 MB of operators that draw nothing still ran after five minutes. A real
 * statement of 190 pages read in 4.4 s; a file still reading after two minutes is stopped, so the next import
 * does not wait behind it.
 */
export const PDF_MAX_READ_MS = 120_000;

const notAStatement = (size: string) =>
  `expands to more than ${size} when read; it is not a bank statement this console can read.`;

/** "2 minutes", "1 second", "500 ms": a time limit as the refusal names it. */
function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} second${ms === 1000 ? '' : 's'}`;
  return `${ms} ms`;
}

/** Text pieces closer than this (in PDF points) belong to one cell: a word space is about 2.5 at 10 pt. */
const CELL_GAP = 4;
/** Baselines closer than this (points) are one line. */
const LINE_SLACK = 2;
const PAGE_LINE = /^page\s+\d+(\s+of\s+\d+)?$/i;

/** Null when the file has no text at all (a scanned image); else its rows, numbered by their order in the file. */
export async function readPdfRows(
  bytes: Buffer,
  password: string | undefined,
  isHeader: (cells: string[]) => boolean,
  limits: PdfLimits,
): Promise<SheetCell[][] | null> {
  // A copy of the file's own size, moved (not copied again) into the worker.
  const data: PdfWorkerData = {
    bytes: new Uint8Array(bytes),
    password,
    maxInflatedBytes: PDF_MAX_INFLATED_MB * 1024 * 1024,
    maxChars: PDF_MAX_TEXT_CHARS,
  };
  const worker = startModuleWorker(
    new URL('./statement-pdf-worker.js', import.meta.url),
    new URL('./pdf-worker.ts', import.meta.url),
    {
      workerData: data,
      transferList: [data.bytes.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_HEAP_MB },
    },
  );
  const rows = pdfRowGrouper(isHeader, limits);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<SheetCell[][] | null>((resolve, reject) => {
      // Each message is handled whole; a limit passed rejects, and the thread is stopped below.
      const settle = (step: () => void) => {
        try {
          step();
        } catch (e) {
          reject(e);
        }
      };
      worker.on('message', (m: PdfWorkerMessage) =>
        settle(() => {
          if (m.type === 'pages' && m.count > limits.maxPages) {
            limits.tooBig(`has ${m.count} pages; the console reads at most ${limits.maxPages}.`);
          } else if (m.type === 'page') rows.add(m.pieces);
          else if (m.type === 'done') resolve(rows.result());
          else if (m.type === 'password') reject(new PdfPasswordError(m.reason));
          else if (m.type === 'inflates-too-far') limits.tooBig(notAStatement(`${PDF_MAX_INFLATED_MB} MB`));
          else if (m.type === 'too-much-text') {
            limits.tooBig(notAStatement(`${PDF_MAX_TEXT_CHARS.toLocaleString('en-IN')} characters of text`));
          } else if (m.type === 'failed') reject(new Error(m.error));
        }),
      );
      worker.once('error', (e: Error & { code?: string }) =>
        settle(() =>
          e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? limits.tooBig(notAStatement(`${PDF_WORKER_HEAP_MB} MB`)) : reject(e),
        ),
      );
      worker.once('exit', () => reject(new Error('the PDF reader stopped before it finished')));
      const maxReadMs = limits.maxReadMs ?? PDF_MAX_READ_MS;
      timer = setTimeout(
        () =>
          settle(() =>
            limits.tooBig(
              `takes more than ${formatDuration(maxReadMs)} to read; it is not a bank statement this console can read.`,
            ),
          ),
        maxReadMs,
      );
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** The rows of a PDF's pages, given page by page in order. */
function pdfRowGrouper(isHeader: (cells: string[]) => boolean, limits: PdfLimits) {
  const rows: SheetCell[][] = [];
  let header: { texts: string[]; spans: [number, number][] } | null = null;
  let anyText = false;
  return {
    add(pieces: Piece[]) {
      if (pieces.length > 0) anyText = true;
      for (const line of linesOf(pieces)) {
        const cells = cellsOf(line);
        const texts = cells.map((c) => c.text);
        if (texts.length === 1 && PAGE_LINE.test(texts[0]!)) continue;
        if (header && texts.join('\t') === header.texts.join('\t')) continue;
        if (!header && isHeader(texts)) {
          // A column runs from its header's left edge to the next header's: amounts are right-aligned under it.
          header = { texts, spans: cells.map((c, i) => [c.x, cells[i + 1]?.x ?? Math.max(c.end, c.x + 1_000)]) };
          rows.push(texts);
        } else {
          rows.push(header ? underHeader(cells, header.spans) : texts);
        }
        if (rows.length > limits.maxRows) limits.tooBig(limits.rowsSentence);
      }
    },
    result: () => (anyText ? rows : null),
  };
}

function linesOf(pieces: Piece[]): Piece[][] {
  const sorted = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Piece[][] = [];
  for (const piece of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(line[0]!.y - piece.y) <= LINE_SLACK) line.push(piece);
    else lines.push([piece]);
  }
  return lines.map((l) => l.sort((a, b) => a.x - b.x));
}

function cellsOf(line: Piece[]): Piece[] {
  const cells: Piece[] = [];
  for (const piece of line) {
    const cell = cells.at(-1);
    if (cell && piece.x - cell.end <= CELL_GAP) {
      cell.text += (piece.x - cell.end > 0.5 && !cell.text.endsWith(' ') ? ' ' : '') + piece.text;
      cell.end = Math.max(cell.end, piece.end);
    } else cells.push({ ...piece });
  }
  for (const c of cells) c.text = c.text.trim();
  return cells;
}

/** Each cell under the header cell it overlaps most (the nearest when it overlaps none); two in one column join. */
function underHeader(cells: Piece[], spans: [number, number][]): SheetCell[] {
  const out: SheetCell[] = spans.map(() => null);
  for (const c of cells) {
    let best = 0;
    let bestScore = -Infinity;
    spans.forEach(([from, to], i) => {
      const overlap = Math.min(to, c.end) - Math.max(from, c.x);
      const score = overlap > 0 ? overlap : -Math.abs((from + to) / 2 - (c.x + c.end) / 2);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    out[best] = out[best] === null ? c.text : `${out[best] as string} ${c.text}`;
  }
  return out;
}
