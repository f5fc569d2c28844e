/**
 * Which chunk of the bundle holds each of the dashboard's modules, and what each chunk imports:
 * written by the build (vite.config.ts), read by the server (route-preloads). Paths of modules
 * are relative to the repository (`src/...`); chunks are files under the bundle's root.
 */
export interface ChunkMap {
  modules: Record<string, string>;
  chunks: Record<string, { entry: boolean; imports: string[] }>;
}

/** Where the build writes the map, under the bundle's root (never served: see static-files). */
export const CHUNK_MAP_PATH = '.vite/chunk-map.json';
