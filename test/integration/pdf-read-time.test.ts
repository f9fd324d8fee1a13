/**
 * The statement PDF reader's time bound: a file of operators that draw nothing and hold no memory passes the
 * inflation and text bounds yet keeps PDF.js running for minutes; the reading thread is stopped at the limit and the
 * file refused in one sentence, and a real PDF read after it is read whole.
 */
import { describe, expect, it } from 'vitest';
import { readPdfRows, type PdfLimits } from '../../electron/import/pdf-text';
import { contentBombPdf, pdfOf } from '../support/pdf-files';

class Refused extends Error {}

const limits = (maxReadMs: number): PdfLimits => ({
  maxRows: 5000,
  maxPages: 500,
  rowsSentence: 'has too many rows',
  tooBig: (sentence) => {
    throw new Refused(sentence);
  },
  maxReadMs,
});

/** One page of text: "Date Amount" then a line, in the standard Helvetica font. */
function onePage(): Buffer {
  const content =
    'BT /F1 10 Tf 50 700 Td (Date) Tj 100 0 Td (Amount) Tj ET BT /F1 10 Tf 50 680 Td (01/11/2026) Tj 100 0 Td (1,250.00) Tj ET';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

describe('the statement PDF reader stops a file that reads for too long', () => {
  it('refuses 32 MB of operators that draw nothing at the time limit, then reads a real page', async () => {
    // Balanced save/restore pairs: no text, no growing stack, well under the 64 MB inflation bound.
    const idle = await contentBombPdf('', 'q Q ', 32 * 1024 * 1024);
    await expect(readPdfRows(idle, undefined, () => false, limits(500))).rejects.toThrow(
      new Refused('takes more than 500 ms to read; it is not a bank statement this console can read.'),
    );
    const rows = await readPdfRows(onePage(), undefined, (cells) => cells.includes('Date'), limits(60_000));
    expect(rows).toEqual([
      ['Date', 'Amount'],
      ['01/11/2026', '1,250.00'],
    ]);
  });
});
