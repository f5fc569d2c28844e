import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The built page's folder (global setup builds it; `SLABDESK_E2E_SKIP_BUILD=1` reuses it). */
export const PAGE_DIR = resolve(import.meta.dirname, '../../dist/page');

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const readManifest = (): Manifest =>
  JSON.parse(readFileSync(join(PAGE_DIR, '.vite/manifest.json'), 'utf8')) as Manifest;

/** The scripts of a manifest entry and of all it imports statically (what loading it fetches). */
export function staticScripts(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of manifest[name]?.imports ?? []) visit(next);
  };
  visit(key);
  return [...seen].map((name) => manifest[name]!.file);
}

/** Every script, stylesheet and asset the build lists (what the service worker keeps in the end). */
export const buildFiles = (manifest: Manifest): string[] => [
  ...new Set(
    Object.values(manifest).flatMap((chunk) => [
      chunk.file,
      ...(chunk.css ?? []),
      ...(chunk.assets ?? []),
    ]),
  ),
];
