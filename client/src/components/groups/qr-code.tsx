import { encode } from 'uqr';

/**
 * A QR code of `text` drawn as one SVG path (no image, no network: the page's policy allows neither).
 * Loaded lazily by the invite box, so the encoder (~10 KB) is downloaded only when someone opens it.
 */
export function QrCode({ text, size = 192, label }: { text: string; size?: number; label: string }) {
  const { data, size: modules } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges" style={{ background: 'white' }}>
      <path d={d} fill="#0b1f3a" />
    </svg>
  );
}
export default QrCode;
