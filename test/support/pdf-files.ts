/**
 * PDFs written by hand for the statement reader's tests: the objects given, numbered from 1 (the first the
 * catalog), with their cross-reference table, as any PDF writer lays them out.
 */
import { once } from 'node:events';
import { createDeflate } from 'node:zlib';

export function pdfOf(objects: readonly (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const add = (part: string | Buffer) => {
    const b = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(b);
    length += b.length;
  };
  const offsets = objects.map((o, i) => {
    const at = length;
    add(`${i + 1} 0 obj\n`);
    add(o);
    add('\nendobj\n');
    return at;
  });
  const xref = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  add(offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join(''));
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A content-stream bomb: one page whose content stream is `start` then `repeated` until it is `inflatedBytes` long,
 * FlateDecode-compressed as it is made (never held whole), so a file of a few megabytes inflates to gigabytes.
 */
export async function contentBombPdf(start: string, repeated: string, inflatedBytes: number): Promise<Buffer> {
  const unit = Buffer.from(repeated.repeat(Math.ceil((64 * 1024) / repeated.length)), 'latin1');
  const deflate = createDeflate({ level: 9 });
  deflate.write(start, 'latin1');
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const ended = once(deflate, 'end');
  for (let written = 0; written < inflatedBytes; written += unit.length) {
    if (!deflate.write(unit)) await once(deflate, 'drain');
  }
  deflate.end();
  await ended;
  const stream = Buffer.concat(chunks);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}
