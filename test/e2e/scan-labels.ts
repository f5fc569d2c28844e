import { openSync, writeSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qrcode from 'qrcode-generator';
import { code128Modules } from '../../src/lib/code128';

/**
 * Slab labels drawn as raw pixels and written as a `.y4m` for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`): a label's 1D barcode (Code 128, as PSA prints the bare
 * cert) or its QR code (a grader's lookup URL). Drawn here from the symbols' own rules: the 1D
 * bars by the app's Code 128 tables, the QR by a small encoder (qrcode-generator).
 */

export const FRAME_WIDTH = 640;
export const FRAME_HEIGHT = 480;
/** Frames a second the fake camera plays (the file's own rate). */
export const FPS = 10;

/** One grey frame (luma only; the chroma planes are neutral). */
export type Frame = Uint8Array;

/** A blank frame: an even grey, as the camera sees before a label is in front of it. */
export function blankFrame(level = 96): Frame {
  return new Uint8Array(FRAME_WIDTH * FRAME_HEIGHT).fill(level);
}

function fillRect(frame: Frame, x: number, y: number, w: number, h: number, level: number) {
  for (let row = Math.max(0, y); row < Math.min(FRAME_HEIGHT, y + h); row++) {
    frame.fill(
      level,
      row * FRAME_WIDTH + Math.max(0, x),
      row * FRAME_WIDTH + Math.min(FRAME_WIDTH, x + w),
    );
  }
}

/** A white label across the view with the cert's Code 128 barcode in the middle. */
export function barcodeLabel(text: string): Frame {
  const frame = blankFrame();
  fillRect(frame, 10, 90, FRAME_WIDTH - 20, 300, 255);
  const modules = code128Modules(text);
  const unit = Math.max(1, Math.floor((FRAME_WIDTH - 80) / (modules.length + 20)));
  const width = modules.length * unit;
  const left = Math.floor((FRAME_WIDTH - width) / 2);
  for (let i = 0; i < modules.length; i++) {
    if (modules[i] === '1') fillRect(frame, left + i * unit, 140, unit, 200, 0);
  }
  return frame;
}

/** A white label with a QR code of `text` (a lookup URL) in the middle. */
export function qrLabel(text: string): Frame {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  const unit = Math.floor(360 / (count + 8));
  const size = count * unit;
  const frame = blankFrame();
  const labelSize = size + 8 * unit;
  fillRect(
    frame,
    Math.floor((FRAME_WIDTH - labelSize) / 2),
    Math.floor((FRAME_HEIGHT - labelSize) / 2),
    labelSize,
    labelSize,
    255,
  );
  const left = Math.floor((FRAME_WIDTH - size) / 2);
  const top = Math.floor((FRAME_HEIGHT - size) / 2);
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) {
      if (qr.isDark(r, c)) fillRect(frame, left + c * unit, top + r * unit, unit, unit, 0);
    }
  }
  return frame;
}

/** A clip: each frame shown for `seconds` (rounded to whole frames). */
export type Clip = readonly { frame: Frame; seconds: number }[];

/** Writes a clip as a YUV4MPEG2 4:2:0 file in a fresh temporary folder; returns its path. */
export function writeY4m(clip: Clip, name = 'labels.y4m'): string {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-camera-'));
  const path = join(folder, name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `YUV4MPEG2 W${FRAME_WIDTH} H${FRAME_HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`);
    const chroma = new Uint8Array((FRAME_WIDTH / 2) * (FRAME_HEIGHT / 2) * 2).fill(128);
    const header = Buffer.from('FRAME\n');
    for (const { frame, seconds } of clip) {
      for (let i = 0; i < Math.max(1, Math.round(seconds * FPS)); i++) {
        writeSync(fd, header);
        writeSync(fd, frame);
        writeSync(fd, chroma);
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
