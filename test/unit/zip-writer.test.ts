import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createZipWriter } from '../../electron/export/zip-writer';

interface Entry {
  flags: number;
  crc: number;
  time: number;
  date: number;
  data: Buffer;
}

/** Reads an archive through its central directory, as unzip does, checking local headers and data descriptors. */
function readZip(file: Buffer): Map<string, Entry> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(-1);
  const count = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  expect(at + file.readUInt32LE(end + 12)).toBe(end);
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    expect(file.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = file.readUInt16LE(at + 28);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    const compressedSize = file.readUInt32LE(at + 20);
    const offset = file.readUInt32LE(at + 42);
    expect(file.readUInt32LE(offset)).toBe(0x04034b50);
    const dataStart = offset + 30 + file.readUInt16LE(offset + 26) + file.readUInt16LE(offset + 28);
    const data = inflateRawSync(file.subarray(dataStart, dataStart + compressedSize));
    expect(data.length).toBe(file.readUInt32LE(at + 24));
    const crc = file.readUInt32LE(at + 16);
    expect(crc32(data)).toBe(crc);
    // The data descriptor after the data repeats CRC and sizes.
    const descriptor = dataStart + compressedSize;
    expect(file.readUInt32LE(descriptor)).toBe(0x08074b50);
    expect(file.readUInt32LE(descriptor + 4)).toBe(crc);
    expect(file.readUInt32LE(descriptor + 8)).toBe(compressedSize);
    expect(file.readUInt32LE(descriptor + 12)).toBe(data.length);
    entries.set(name, {
      flags: file.readUInt16LE(at + 8),
      crc,
      time: file.readUInt16LE(at + 12),
      date: file.readUInt16LE(at + 14),
      data,
    });
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return entries;
}

function pythonAvailable(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tempDir = mkdtempSync(join(tmpdir(), 'pc-zip-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
const tempFile = (name: string) => join(tempDir, name);

/** Pseudo-random bytes: incompressible, so deflate output is as large as its input. */
function noise(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

// The writer uses zlib.crc32 chunk by chunk; this pins the check values and that chaining.
describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(Buffer.alloc(0))).toBe(0);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('continues across chunks', () => {
    const data = noise(10_000, 7);
    expect(crc32(data.subarray(3_000), crc32(data.subarray(0, 3_000)))).toBe(crc32(data));
  });
});

/** Repeats `step` until the promise it returns has not settled after 100 ms, and returns that promise (boxed, as an
 * async function returning a promise would wait for it). */
async function untilStuck(step: () => Promise<void>): Promise<{ pending: Promise<void> }> {
  for (;;) {
    const pending = step();
    const settled = await Promise.race([
      pending.then(
        () => true,
        () => true,
      ),
      new Promise((r) => setTimeout(r, 100, false)),
    ]);
    if (!settled) return { pending };
  }
}

describe('zip writer', () => {
  it('writes entries that read back byte for byte, and that python zipfile accepts', async () => {
    const path = tempFile('several.zip');
    const zip = createZipWriter(createWriteStream(path), { now: new Date(2025, 10, 22, 18, 45, 7) });
    const text = 'settlement,amount\r\n'.repeat(20_000);
    const big = noise(3 * 1024 * 1024, 1);
    await zip.addFile('empty.txt', '');
    await zip.addFile('dir/ünïcødé ₹.txt', 'नमस्ते');
    const entry = zip.entry('big.bin');
    for (let at = 0; at < big.length; at += 100_000) await entry.write(big.subarray(at, at + 100_000));
    await entry.end();
    await zip.addFile('text.csv', text);
    await zip.finish();

    const entries = readZip(readFileSync(path));
    expect([...entries.keys()]).toEqual(['empty.txt', 'dir/ünïcødé ₹.txt', 'big.bin', 'text.csv']);
    expect(entries.get('empty.txt')!.data.length).toBe(0);
    expect(entries.get('dir/ünïcødé ₹.txt')!.data.toString('utf8')).toBe('नमस्ते');
    expect(entries.get('big.bin')!.data.equals(big)).toBe(true);
    expect(entries.get('text.csv')!.data.toString('utf8')).toBe(text);
    const first = entries.get('text.csv')!;
    expect(first.flags).toBe(0x0808);
    // 2025-11-22 18:45:07 local: DOS keeps seconds / 2.
    expect(first.date).toBe(((2025 - 1980) << 9) | (11 << 5) | 22);
    expect(first.time).toBe((18 << 11) | (45 << 5) | 3);

    if (pythonAvailable()) {
      const script =
        'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(z.testzip())\nprint("|".join(z.namelist()))';
      const result = execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }).split('\n');
      expect(result[0]).toBe('None');
      expect(result[1]).toBe('empty.txt|dir/ünïcødé ₹.txt|big.bin|text.csv');
    }
  });

  it('waits for a slow output instead of buffering without bound', async () => {
    const chunks: Buffer[] = [];
    let peakBuffered = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        peakBuffered = Math.max(peakBuffered, this.writableLength);
        setTimeout(callback, 1);
      },
    });
    const zip = createZipWriter(slow, { level: 1 });
    const entry = zip.entry('noise.bin');
    const data = noise(8 * 1024 * 1024, 3);
    for (let at = 0; at < data.length; at += 64 * 1024) await entry.write(data.subarray(at, at + 64 * 1024));
    await entry.end();
    await zip.finish();
    expect(readZip(Buffer.concat(chunks)).get('noise.bin')!.data.equals(data)).toBe(true);
    // Deflate's output is held back while the output drains: never more than a couple of its chunks queued.
    expect(peakBuffered).toBeLessThan(256 * 1024);
  });

  it('refuses overlapping entries and duplicate names', async () => {
    const zip = createZipWriter(new Writable({ write: (_c, _e, cb) => cb() }));
    const entry = zip.entry('a.txt');
    expect(() => zip.entry('b.txt')).toThrow(/previous ZIP entry has not ended/);
    await entry.end();
    expect(() => zip.entry('a.txt')).toThrow(/duplicate/);
    await zip.finish();
  });

  it('aborts: pending promises reject, the output is destroyed, later calls fail', async () => {
    const stuck = new Writable({ highWaterMark: 1024, write: () => {} });
    const zip = createZipWriter(stuck, { level: 0 });
    const entry = zip.entry('noise.bin');
    const data = noise(64 * 1024, 5);
    const { pending } = await untilStuck(() => entry.write(data));
    const reason = new Error('user cancelled');
    zip.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(entry.end()).rejects.toBe(reason);
    await expect(zip.finish()).rejects.toBe(reason);
    expect(stuck.destroyed).toBe(true);
  });

  it('turns an output error into rejections with that error', async () => {
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('ENOSPC: no space left on device'));
      },
    });
    const zip = createZipWriter(broken);
    await expect(zip.addFile('a.txt', 'x'.repeat(100_000))).rejects.toThrow(/ENOSPC/);
    await expect(zip.finish()).rejects.toThrow(/ENOSPC/);
  });
});
