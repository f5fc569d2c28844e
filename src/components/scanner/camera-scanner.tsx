import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { loadBarcodeEngine, type BarcodeEngine } from './barcode-engine';
import './scanner.css';

type CameraState =
  | { state: 'starting' }
  | { state: 'running' }
  | { state: 'denied' }
  | { state: 'no-camera' }
  | { state: 'failed'; detail: string };

/** The same code seen again within this time is the same slab still in view, not a new scan. */
const SAME_CODE_MS = 1500;
/** The pause between looks where there is no `requestVideoFrameCallback`. */
const LOOK_EVERY_MS = 80;

/** The video element's per-frame callback, where the browser has it (DOM types may lack it). */
type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export interface CameraScannerProps {
  /** A code read from the camera, or a cert typed by the seller. */
  onRead(text: string, source: 'camera' | 'typed'): void;
  /** Words above the typed-cert field (what a scan does here). */
  typeLabel?: string;
  /** While false the camera stays open but nothing is read (a result is on screen). */
  reading?: boolean;
}

function cameraProblem(error: unknown): CameraState {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return { state: 'denied' };
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return { state: 'no-camera' };
  return { state: 'failed', detail: error instanceof Error ? error.message : String(error) };
}

/** Whether the track's camera has a torch it lets the page switch (Chrome on Android). */
function hasTorch(track: MediaStreamTrack | undefined): boolean {
  const capabilities = track?.getCapabilities?.() as { torch?: boolean } | undefined;
  return capabilities?.torch === true;
}

/** The rear camera with a barcode reader, a torch switch where there is one, and a typed cert. */
export function CameraScanner({
  onRead,
  typeLabel = 'Or type the cert number',
  reading = true,
}: CameraScannerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const trackRef = useRef<MediaStreamTrack | undefined>(undefined);
  const [camera, setCamera] = useState<CameraState>({ state: 'starting' });
  const [engine, setEngine] = useState<BarcodeEngine['kind'] | undefined>(undefined);
  const [torch, setTorch] = useState<{ available: boolean; on: boolean }>({
    available: false,
    on: false,
  });
  const [typed, setTyped] = useState('');
  const onReadRef = useRef(onRead);
  const readingRef = useRef(reading);
  useEffect(() => {
    onReadRef.current = onRead;
    readingRef.current = reading;
  });
  const fieldId = useId();

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frameCall: number | undefined;
    let frameVideo: FrameVideo | undefined;
    const last = { text: '', at: 0 };
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setCamera({ state: 'no-camera' });
        return;
      }
      try {
        const [media, reader] = await Promise.all([
          navigator.mediaDevices.getUserMedia({
            audio: false,
            video: {
              facingMode: { ideal: 'environment' },
              width: { ideal: 1280 },
              height: { ideal: 720 },
            },
          }),
          loadBarcodeEngine(),
        ]);
        stream = media;
        if (stopped) return;
        setEngine(reader.kind);
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = media;
        await video.play().catch(() => undefined);
        const track = media.getVideoTracks()[0];
        trackRef.current = track;
        setTorch({ available: hasTorch(track), on: false });
        setCamera({ state: 'running' });
        const framed: FrameVideo = video;
        // The next look: on the camera's next new frame, else after a pause.
        const next = () => {
          if (stopped) return;
          if (framed.requestVideoFrameCallback) {
            frameVideo = framed;
            frameCall = framed.requestVideoFrameCallback(() => void look());
          } else {
            timer = setTimeout(() => void look(), LOOK_EVERY_MS);
          }
        };
        const look = async () => {
          if (stopped) return;
          if (readingRef.current && video.readyState >= 2 && video.videoWidth > 0) {
            try {
              for (const code of await reader.detect(video)) {
                const now = performance.now();
                if (code.rawValue === last.text && now - last.at < SAME_CODE_MS) {
                  last.at = now;
                  continue;
                }
                last.text = code.rawValue;
                last.at = now;
                if (!stopped && readingRef.current) onReadRef.current(code.rawValue, 'camera');
              }
            } catch {
              // One frame the reader could not take (resizing, a stream ending): try the next.
            }
          }
          next();
        };
        void look();
      } catch (error) {
        if (!stopped) setCamera(cameraProblem(error));
      }
    };
    void start();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (frameCall !== undefined) frameVideo?.cancelVideoFrameCallback?.(frameCall);
      for (const track of stream?.getTracks() ?? []) track.stop();
      trackRef.current = undefined;
    };
  }, []);

  const switchTorch = async () => {
    const track = trackRef.current;
    if (!track) return;
    const on = !torch.on;
    try {
      await track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
      setTorch({ available: true, on });
    } catch {
      setTorch({ available: false, on: false });
    }
  };

  const submitTyped = (event: FormEvent) => {
    event.preventDefault();
    const text = typed.trim();
    if (!text) return;
    onRead(text, 'typed');
    setTyped('');
  };

  return (
    <div className="camera-scanner" data-engine={engine} data-camera={camera.state}>
      <div className="camera-view">
        {/* The preview is decoration for the seller's aim: what was read is announced in words. */}
        <video ref={videoRef} muted playsInline aria-hidden="true" />
        <div className="camera-aim" aria-hidden="true" />
        {camera.state === 'starting' && <p className="camera-note">Starting the camera…</p>}
        {camera.state === 'denied' && (
          <p className="camera-note" role="alert">
            The camera is blocked for this site. Allow it in the browser&apos;s site settings, or
            type the cert below.
          </p>
        )}
        {camera.state === 'no-camera' && (
          <p className="camera-note" role="alert">
            No camera was found on this device. Type the cert below.
          </p>
        )}
        {camera.state === 'failed' && (
          <div className="camera-note" role="alert">
            <p>The camera could not be started. Type the cert below.</p>
            <details>
              <summary>Details</summary>
              <p>{camera.detail}</p>
            </details>
          </div>
        )}
      </div>
      <div className="camera-controls">
        {camera.state === 'running' && (
          <p className="muted camera-status" role="status">
            Point the camera at the label&apos;s barcode or QR code.
          </p>
        )}
        {torch.available && (
          <button type="button" aria-pressed={torch.on} onClick={() => void switchTorch()}>
            {torch.on ? 'Torch off' : 'Torch on'}
          </button>
        )}
      </div>
      <form className="typed-cert" onSubmit={submitTyped}>
        <label htmlFor={fieldId}>{typeLabel}</label>
        <div className="typed-cert-row">
          <input
            id={fieldId}
            inputMode="numeric"
            autoComplete="off"
            enterKeyHint="go"
            value={typed}
            maxLength={200}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit">Look up</button>
        </div>
      </form>
    </div>
  );
}
