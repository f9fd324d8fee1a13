import { describe, expect, it } from 'vitest';
import { ByteChunks } from '../../electron/export/byte-chunks';

/** What `plainXml` makes of `text`: the bytes it copied, or false with nothing written. */
function plain(text: string): string | false {
  const chunks = new ByteChunks(1024);
  chunks.reserve(text.length);
  chunks.ascii('<');
  const copied = chunks.plainXml(text);
  const bytes = chunks.takeAll().toString('latin1');
  if (!copied) {
    expect(bytes, 'nothing written').toBe('<');
    return false;
  }
  return bytes.slice(1);
}

describe('plainXml', () => {
  it('copies exactly the ASCII text XML content takes as it is', () => {
    for (let c = 0; c < 0x100; c++) {
      const char = String.fromCharCode(c);
      const isPlain = (c >= 0x20 && c <= 0x7e && !'&<>'.includes(char)) || c === 0x09 || c === 0x0a;
      expect(plain(`a${char}b`), `U+${c.toString(16)}`).toBe(isPlain ? `a${char}b` : false);
    }
    for (const c of [0x20ac, 0xd83d, 0xdc00, 0xfffe, 0xffff]) expect(plain(String.fromCharCode(c))).toBe(false);
  });

  it('sends a literal _xHHHH_, which Excel would decode, to escaping, and nothing like it', () => {
    for (const text of ['_x0041_', 'a _xbeeF_ b', 'end_x00ff_']) expect(plain(text), text).toBe(false);
    for (const text of ['_x0041', '_X0041_', '_x004G_', '_x041_', '__x_', '_']) expect(plain(text), text).toBe(text);
  });
});

describe('digits', () => {
  it("writes a safe integer's decimal digits as String does", () => {
    const values = [
      0,
      1,
      9,
      10,
      99,
      100,
      12_345,
      2 ** 31,
      2 ** 32 + 7,
      10 ** 15 - 1,
      10 ** 15,
      Number.MAX_SAFE_INTEGER,
    ];
    for (let k = 0; k < 200; k++) values.push(Math.floor(Number.MAX_SAFE_INTEGER / 1.37 ** k));
    const chunks = new ByteChunks(1 << 16);
    for (const n of values) {
      chunks.reserve(17);
      chunks.digits(n);
      chunks.byte(0x20);
    }
    expect(chunks.takeAll().toString('latin1')).toBe(values.map((n) => `${String(n)} `).join(''));
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
