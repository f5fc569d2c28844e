import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateFolder } from '../private-files';

// Photos taken at the table wait here until the marketplace downloads them: the API takes a
// listing's photos only by https URL.

export const PHOTO_MIME = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;
type PhotoType = keyof typeof PHOTO_MIME;

/** The spec's limit on a listing photo. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** The most photos the folder keeps: a busy season of new listings, bounded. */
const MAX_PHOTOS = 20_000;

/** What the bytes are, by their first bytes (never by what the sender said): else undefined. */
export function sniffPhoto(bytes: Uint8Array): PhotoType | undefined {
  const at = (offset: number, ...expected: number[]) =>
    expected.every((byte, index) => bytes[offset + index] === byte);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // RIFF, a length, then WEBP.
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return undefined;
}

/** A kept photo's file name: an unguessable id (144 random bits) and its type. */
const NAME = /^([A-Za-z0-9_-]{24})\.(jpg|png|webp)$/;

export interface KeptPhoto {
  name: string;
  type: PhotoType;
  bytes: number;
}

export class PhotoStore {
  private readonly folder: string;
  /** A folder of this run only, removed with it (a server with no files on disk). */
  private readonly temporary: boolean;
  private count: number;

  /** `:memory:`: a folder of its own in the system's temporary folder. */
  constructor(folder: string) {
    this.temporary = folder === ':memory:';
    this.folder = this.temporary ? mkdtempSync(join(tmpdir(), 'slabdesk-photos-')) : folder;
    privateFolder(this.folder);
    this.count = readdirSync(this.folder).filter((name) => NAME.test(name)).length;
  }

  /** Keeps the photo under a new random name; undefined when the folder holds its most. */
  keep(bytes: Uint8Array, type: PhotoType): KeptPhoto | undefined {
    if (this.count >= MAX_PHOTOS) return undefined;
    const name = `${randomBytes(18).toString('base64url')}.${type}`;
    const path = join(this.folder, name);
    writeFileSync(path, bytes, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    this.count++;
    return { name, type, bytes: bytes.byteLength };
  }

  close(): void {
    if (this.temporary) rmSync(this.folder, { recursive: true, force: true });
  }

  /** A kept photo by its file name (checked before any path is built); undefined if not ours. */
  find(name: string): (KeptPhoto & { path: string }) | undefined {
    const match = NAME.exec(name);
    if (!match) return undefined;
    const path = join(this.folder, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile()
      ? { name, path, type: match[2] as PhotoType, bytes: stat.size }
      : undefined;
  }
}
