/**
 * Writes every icon format electron-builder needs from resources/icon.svg: `icon.png` (1024 px), `icon.ico` (Windows:
 * 16–256 px) and `icon.icns` (macOS: 16–1024 px). Both containers hold PNG images, which Windows Vista+ and macOS 10.7+
 * read, so one rasteriser (resvg) makes every pixel. Run `node scripts/icons.mjs` after changing the SVG;
 * test/unit/builder-config.test.ts fails while the committed files differ from what this makes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const ICON_SOURCE = `${root}resources/icon.svg`;
export const ICON_DIR = `${root}resources/icons`;

const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS element types that hold a PNG, by pixel size (the @2x types reuse the next size up). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

function render(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}

/** ICO: a 6-byte header, a 16-byte entry per image (0 in a size byte means 256), then the PNGs. */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(([size, png], i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(([, png]) => png)]);
}

/** ICNS: 'icns' + total length, then per image its 4-byte type, its length with the 8-byte element header, the PNG. */
function icns(elements) {
  const parts = elements.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

/** The three files, by name, as bytes. */
export function renderIcons(svg = readFileSync(ICON_SOURCE)) {
  const sizes = new Set([...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)]);
  const png = new Map([...sizes].map((s) => [s, render(svg, s)]));
  return {
    'icon.png': png.get(1024),
    'icon.ico': ico(ICO_SIZES.map((s) => [s, png.get(s)])),
    'icon.icns': icns(ICNS_TYPES.map(([type, s]) => [type, png.get(s)])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(ICON_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(renderIcons())) {
    writeFileSync(`${ICON_DIR}/${name}`, bytes);
    console.log(`${ICON_DIR}/${name}: ${bytes.length} bytes`);
  }
}
