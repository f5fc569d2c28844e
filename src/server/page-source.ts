import type { FastifyInstance } from 'fastify';

/** What serves the page and its assets: Vite in development, the built bundle in production. */
export interface PageSource {
  /** Development: Vite's files need a session where pages do (they are the source tree). */
  development: boolean;
  /** Adds what serves the assets; a path it does not serve falls through to the page. */
  register(app: FastifyInstance): Promise<void>;
  /** The page's HTML for a path, or null when there is none (not built); `nonce` in development. */
  pageHtml(pathname: string, nonce: string | undefined): Promise<string | null>;
  close?(): Promise<void>;
}
