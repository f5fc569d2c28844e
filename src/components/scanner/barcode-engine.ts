/** The codes slab labels carry: PSA and BGS 1D (Code 128, Code 39, ITF), QR, Data Matrix. */
export const LABEL_FORMATS = ['code_128', 'code_39', 'itf', 'qr_code', 'data_matrix'] as const;

export interface DetectedCode {
  rawValue: string;
  format: string;
}

/** A barcode reader over a video frame: the browser's own, or the zxing-wasm polyfill. */
export interface BarcodeEngine {
  kind: 'native' | 'polyfill';
  detect(source: HTMLVideoElement | ImageBitmap | HTMLCanvasElement): Promise<DetectedCode[]>;
}

interface DetectorLike {
  detect(source: ImageBitmapSource): Promise<{ rawValue: string; format: string }[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): DetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/** The browser's `BarcodeDetector` when it reads the label formats; DOM types do not name it yet. */
async function nativeDetector(): Promise<DetectorLike | undefined> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return undefined;
  try {
    const supported = new Set(await Native.getSupportedFormats());
    const formats = LABEL_FORMATS.filter((format) => supported.has(format));
    // A browser reading neither QR nor Code 128 reads no label worth the name: use the polyfill.
    if (!supported.has('qr_code') || !supported.has('code_128')) return undefined;
    return new Native({ formats });
  } catch {
    return undefined;
  }
}

let polyfillLoad: Promise<DetectorLike> | undefined;

/** The polyfill, loaded on first open; its wasm from this server, never the package's CDN. */
function polyfillDetector(): Promise<DetectorLike> {
  polyfillLoad ??= Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]).then(([{ BarcodeDetector, setZXingModuleOverrides }, { default: wasmUrl }]) => {
    setZXingModuleOverrides({
      locateFile: (path: string, prefix: string) =>
        path.endsWith('.wasm') ? wasmUrl : prefix + path,
    });
    return new BarcodeDetector({ formats: [...LABEL_FORMATS] });
  });
  polyfillLoad.catch(() => {
    polyfillLoad = undefined;
  });
  return polyfillLoad;
}

async function makeEngine(prefer: 'auto' | 'polyfill'): Promise<BarcodeEngine> {
  const native = prefer === 'auto' ? await nativeDetector() : undefined;
  const detector = native ?? (await polyfillDetector());
  return {
    kind: native ? 'native' : 'polyfill',
    detect: async (source) =>
      (await detector.detect(source)).map((code) => ({
        rawValue: code.rawValue,
        format: code.format,
      })),
  };
}

const engines = new Map<'auto' | 'polyfill', Promise<BarcodeEngine>>();

/** The page's one reader: the browser's own where it reads labels, else the polyfill. */
export function loadBarcodeEngine(prefer: 'auto' | 'polyfill' = 'auto'): Promise<BarcodeEngine> {
  let engine = engines.get(prefer);
  if (!engine) {
    engine = makeEngine(prefer);
    engines.set(prefer, engine);
    // A failed load (a network drop mid-fetch) is tried again at the next open.
    engine.catch(() => engines.delete(prefer));
  }
  return engine;
}

/** Readies the reader early so Scan waits only on the camera; failures silent here. */
export function preloadBarcodeEngine(): void {
  loadBarcodeEngine().catch(() => undefined);
}
