import { encode } from 'uqr';

/**
 * `text` as a QR code, drawn as SVG from the encoder's module matrix (one path, no markup
 * strings injected), sized by CSS so it prints sharp at any size.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  const modules: string[] = [];
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) modules.push(`M${x} ${y}h1v1h-1z`);
    }),
  );
  return (
    <svg
      className="qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={modules.join('')} fill="#000" />
    </svg>
  );
}
