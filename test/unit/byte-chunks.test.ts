import { describe, expect, it } from 'vitest';
import { ByteChunks, isPlainXmlAscii } from '../../electron/export/byte-chunks';

describe('isPlainXmlAscii', () => {
  it('passes exactly the ASCII characters XML content takes as they are', () => {
    for (let c = 0; c < 0x100; c++) {
      const char = String.fromCharCode(c);
      const plain = (c >= 0x20 && c <= 0x7e && !'&<>'.includes(char)) || c === 0x09 || c === 0x0a;
      expect(isPlainXmlAscii(`a${char}b`), `U+${c.toString(16)}`).toBe(plain);
    }
    for (const c of [0x20ac, 0xd83d, 0xdc00, 0xfffe, 0xffff])
      expect(isPlainXmlAscii(String.fromCharCode(c))).toBe(false);
  });

  it('sends a literal _xHHHH_, which Excel would decode, to escaping, and nothing like it', () => {
    for (const text of ['_x0041_', 'a _xbeeF_ b', 'end_x00ff_']) expect(isPlainXmlAscii(text), text).toBe(false);
    for (const text of ['_x0041', '_X0041_', '_x004G_', '_x041_', '__x_', '_'])
      expect(isPlainXmlAscii(text), text).toBe(true);
  });
});

describe('ByteChunks', () => {
  it('hands over chunks of about the flush size, each unit whole, and takes a rewound unit back', () => {
    const chunks = new ByteChunks(64);
    const handed: Buffer[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 200; i++) {
      const unit = `<row r="${i}">${'é'.repeat(i % 7)}</row>`;
      chunks.reserve(unit.length * 3);
      const start = chunks.pos;
      chunks.ascii(`<row r="${i}">`);
      chunks.utf8('é'.repeat(i % 7));
      chunks.ascii('</row>');
      if (i % 13 === 5) {
        chunks.rewind(start);
        continue;
      }
      expected.push(unit);
      if (chunks.ready()) handed.push(chunks.take());
    }
    handed.push(chunks.takeAll());
    expect(Buffer.concat(handed).toString('utf8')).toBe(expected.join(''));
    // No chunk but the last is far below the flush size, and none splits a row.
    for (const chunk of handed.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(64);
      expect(chunk.toString('utf8')).toMatch(/^(<row r="\d+">(é)*<\/row>)+$/);
    }
  });

  it('gives a unit larger than a chunk a chunk of its own size', () => {
    const chunks = new ByteChunks(16);
    chunks.reserve(4);
    chunks.ascii('head');
    const big = 'x'.repeat(1000);
    chunks.reserve(big.length);
    chunks.ascii(big);
    // 'head' was sealed to make room, the big unit once it was past the flush size: both are handed over, in order.
    expect(chunks.ready()).toBe(true);
    expect(chunks.take().toString()).toBe('head' + big);
    expect(chunks.takeAll().length).toBe(0);
  });
});
