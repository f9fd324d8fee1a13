/**
 * A QR code of a UPI payment link, drawn as one SVG path from uqr's module matrix (uqr: small, no dependencies,
 * maintained; it only encodes, and the drawing stays ours, so the content policy needs no inline images).
 */
import { useMemo } from 'react';
import { encode } from 'uqr';

export function QrCode({ text, label, size = 184 }: { text: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    // Medium error correction, the UPI apps' usual; a quiet zone of four modules, as the standard asks.
    const qr = encode(text, { ecc: 'M', border: 4 });
    const parts: string[] = [];
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      }),
    );
    return { path: parts.join(''), modules: qr.size };
  }, [text]);
  return (
    <svg
      className="tools-qr"
      role="img"
      aria-label={label}
      data-qr-text={text}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      {/* Always dark on white, in dark mode too: scanners read dark modules on a light field. */}
      <rect width={modules} height={modules} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
