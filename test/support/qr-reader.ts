/**
 * Reads a QR code drawn as SVG, independently of the encoder that made it: resvg renders the SVG to pixels and
 * jsQR (a separate implementation of the standard) finds and decodes the code in them, as a phone camera would.
 */
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';

export function readQrSvg(svg: string): string | null {
  // Several pixels a module, as a camera sees it; the SVG's own size may be small.
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: 400 }, background: '#ffffff' }).render();
  const found = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height);
  return found?.data ?? null;
}
