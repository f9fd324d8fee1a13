/** The count of what a PDF's streams inflate to, taken before PDF.js reads the file (electron/import/pdf-streams.ts). */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfInflatedBytes } from '../../electron/import/pdf-streams';
import { pdfOf } from '../support/pdf-files';

const stream = (data: Buffer) =>
  Buffer.concat([
    Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
const page = (content: string) => Buffer.from(content, 'latin1');

describe('pdfInflatedBytes', () => {
  it('adds up every FlateDecode stream and counts nothing for data that is not zlib', () => {
    const a = page('BT /F1 10 Tf (a) Tj ET\n'.repeat(100));
    const b = page('q 1 0 0 1 0 0 cm Q\n'.repeat(50));
    const pdf = pdfOf([stream(deflateSync(a)), stream(deflateSync(b)), stream(Buffer.from('not zlib at all'))]);
    expect(pdfInflatedBytes(pdf, 1024 ** 2)).toBe(a.length + b.length);
  });

  it('counts a stream compressed twice at both sizes', () => {
    const content = page('(x) Tj\n'.repeat(10_000));
    const once = deflateSync(content);
    expect(pdfInflatedBytes(pdfOf([stream(deflateSync(once))]), 1024 ** 2)).toBe(once.length + content.length);
  });

  it('is not cut short by an "endstream" hidden in the data or a /Length that lies', () => {
    // A stored (uncompressed) deflate block carries "endstream" as it is; the data goes on past it.
    const content = Buffer.concat([page('% endstream\n'), page('(x) Tj\n'.repeat(10_000))]);
    const data = deflateSync(content, { level: 0 });
    expect(data.includes('endstream')).toBe(true);
    const lying = Buffer.concat([page('<< /Length 5 /Filter /FlateDecode >>\nstream\n'), data, page('\nendstream')]);
    expect(pdfInflatedBytes(pdfOf([lying]), 1024 ** 2)).toBe(content.length);
  });

  it('stops past the limit with limit + 1', () => {
    const pdf = pdfOf([stream(deflateSync(Buffer.alloc(10 * 1024 ** 2, 0x20)))]);
    expect(pdfInflatedBytes(pdf, 1024 ** 2)).toBe(1024 ** 2 + 1);
  });
});
