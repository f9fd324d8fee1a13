/**
 * The rows of a PDF e-statement read from its text layer with pdfjs-dist (Mozilla's PDF.js, legacy build for
 * Node): each page's text items are grouped into lines by their baseline, and the pieces of a line into cells by
 * the gaps between them. Once a line is a statement's header (`isHeader`), later lines put each cell under the
 * header cell it overlaps most, so an empty withdrawal cell stays empty instead of shifting the deposit left.
 * A repeated header on a later page and a "Page n of m" line are dropped. The password, when the file has one,
 * is handed to PDF.js and kept nowhere else.
 */
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { SheetCell } from '../../shared/beneficiary-import';

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
}

interface Piece {
  x: number;
  end: number;
  y: number;
  text: string;
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
  // Loaded when a PDF is first read, not when the app starts: PDF.js is a megabyte of JavaScript.
  const pdfjs: typeof PdfJs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
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
    await task.destroy();
    if (e instanceof Error && e.name === 'PasswordException') {
      const code = (e as Error & { code?: number }).code;
      throw new PdfPasswordError(code === pdfjs.PasswordResponses.INCORRECT_PASSWORD ? 'wrong' : 'needed');
    }
    throw e;
  }
  try {
    if (doc.numPages > limits.maxPages) {
      limits.tooBig(`has ${doc.numPages} pages; the console reads at most ${limits.maxPages}.`);
    }
    const rows: SheetCell[][] = [];
    let header: { texts: string[]; spans: [number, number][] } | null = null;
    let anyText = false;
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      page.cleanup();
      const pieces: Piece[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const x = item.transform[4] as number;
        pieces.push({ x, end: x + item.width, y: item.transform[5] as number, text: item.str });
      }
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
    }
    return anyText ? rows : null;
  } finally {
    await doc.destroy();
  }
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
