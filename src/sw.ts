/**
 * The service worker: keeps the app's code (the build's files, listed by vite-plugin-pwa at
 * build time) so a repeat visit loads none of it from the network, and the last page the
 * signed-in person opened so the dashboard opens with no network. Never an `/api` or `/hub`
 * answer, never sign-in: a page is always asked of the server first, so its sign-in redirect
 * stands; only with no network at all is the kept page shown.
 */

// The worker's own types (WebWorker lib) clash with the DOM lib of the rest of src/: the few
// it uses, written out.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface MessageEventLike extends ExtendableEvent {
  readonly data: unknown;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: { scope: string };
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window' }): Promise<readonly { url: string }[]>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

declare const self: WorkerScope & {
  __WB_MANIFEST: { url: string; revision: string | null }[];
};

const sw = self;
const MANIFEST = self.__WB_MANIFEST;
/** The build's files, under a name that changes with them. */
const SHELL = `slabdesk-shell-${hashOf(MANIFEST.map((entry) => `${entry.url}@${entry.revision ?? ''}`).join('|'))}`;
/** The pages the signed-in person opened: the account's, cleared at sign-out. */
const PAGES = 'slabdesk-pages';
/** The page shown for any address with no network (the router draws the right one). */
const LAST_PAGE = '/__slabdesk-last-page';

/** Paths the worker never answers or keeps: the server decides each time. */
const NEVER = /^\/(api|hub|auth|sign-in|sign-out|healthz)(\/|$|\?)/;

function hashOf(text: string): string {
  let hash = 5381;
  for (let index = 0; index < text.length; index++) {
    hash = (Math.imul(hash, 33) ^ text.charCodeAt(index)) >>> 0;
  }
  return hash.toString(36);
}

// Once each: the list names the icons both as files and as the manifest's (addAll refuses twins).
const shellUrls = () => [
  ...new Set(
    MANIFEST.map((entry) => new URL(entry.url, sw.registration.scope).href).filter(
      (url) => !url.endsWith('.html'),
    ),
  ),
];

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(shellUrls());
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('slabdesk-shell-') && name !== SHELL) await caches.delete(name);
      }
      await sw.clients.claim();
      // The pages open now were loaded before this worker: kept too, so a reload offline opens.
      for (const client of await sw.clients.matchAll({ type: 'window' })) {
        const url = new URL(client.url);
        if (url.origin !== sw.location.origin || NEVER.test(url.pathname)) continue;
        await page(new Request(url.href, { credentials: 'same-origin' })).catch(() => undefined);
      }
    })(),
  );
});

sw.addEventListener('message', (event) => {
  // Sign-out: nothing of the account stays (its pages carry its name and token).
  if ((event.data as { type?: string } | null)?.type === 'sign-out') {
    event.waitUntil(caches.delete(PAGES));
  }
});

/** A page: the server's answer whenever there is one; the kept page only with no network. */
async function page(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    // Only a whole page of a signed-in visit is kept; a redirect (to sign-in) passes as it is.
    if (response.status === 200 && response.type === 'basic' && !response.redirected) {
      const cache = await caches.open(PAGES);
      await cache.put(request.url, response.clone());
      await cache.put(new URL(LAST_PAGE, sw.registration.scope).href, response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES);
    const kept =
      (await cache.match(request.url)) ??
      (await cache.match(new URL(LAST_PAGE, sw.registration.scope).href));
    if (kept) return kept;
    throw error;
  }
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
    return;
  }
  event.respondWith(
    (async () => {
      const kept = await caches.match(request, { cacheName: SHELL, ignoreSearch: true });
      return kept ?? fetch(request);
    })(),
  );
});

// A module: the declarations above are its own, not the page's globals.
export {};
