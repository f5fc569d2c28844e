import { code128Modules } from '../lib/code128';

/** A Code 128 barcode of `value` as SVG (10-module quiet zones), named for screen readers. */
export function Barcode({ value, height = 48 }: { value: string; height?: number }) {
  const modules = code128Modules(value);
  const quiet = 10;
  const width = modules.length + quiet * 2;
  const bars: { x: number; w: number }[] = [];
  for (let i = 0; i < modules.length;) {
    if (modules[i] === '1') {
      let j = i;
      while (modules[j] === '1') j++;
      bars.push({ x: quiet + i, w: j - i });
      i = j;
    } else i++;
  }
  return (
    <svg
      className="barcode"
      viewBox={`0 0 ${width} ${height}`}
      width={width * 1.5}
      height={height}
      role="img"
      aria-label={`Barcode of ${value}`}
      data-modules={modules}
      preserveAspectRatio="none"
      shapeRendering="crispEdges"
    >
      <rect x={0} y={0} width={width} height={height} fill="#fff" />
      {bars.map((bar) => (
        <rect key={bar.x} x={bar.x} y={0} width={bar.w} height={height} fill="#000" />
      ))}
    </svg>
  );
}
