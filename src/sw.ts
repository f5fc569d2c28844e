/**
 * The service worker: keeps the app's code (the build's files, listed by vite-plugin-pwa at
 * build time) so a repeat visit loads none of it from the network, and the last page the
 * signed-in person opened so the dashboard opens with no network. At install it keeps only the
 * shell (the first load, the icons) and the barcode reader; each other file as a page uses it,
 * and the rest once the page says it is idle: every page opens offline, and a first page is not
 * slowed by files it does not use. Never an `/api` or `/hub` answer, never sign-in: a page is
 * always asked of the server first, so its sign-in redirect stands; only with no network at all
 * is the kept page shown. Only the app's own page is kept (HTML, at an app route, carrying the
 * app's boot facts), never a file or another answer. A page sent to sign-in because its session
 * ended (`ended=1`) clears the kept pages and copies at once and marks it, so the page's next
 * open says what was waiting to be sent and clears the rest. A push from the hub (a case slab
 * sold online) is shown as a notification; pressing it opens or focuses the slab's counter view.
 */

import {
  KEPT_DB,
  PAGES_CACHE,
  SESSION_ENDED_CACHE,
  SHELL_CACHE_PREFIX,
} from './shared/browser-keeps';

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
interface PushEventLike extends ExtendableEvent {
  readonly data: { text(): string } | null;
}
interface NotificationEventLike extends ExtendableEvent {
  readonly notification: { readonly data: unknown; close(): void };
}
interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: {
    scope: string;
    showNotification(
      title: string,
      options: { body: string; tag: string; data: unknown; icon?: string; renotify?: boolean },
    ): Promise<void>;
  };
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: {
      type: 'window';
      includeUncontrolled?: boolean;
    }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: NotificationEventLike) => void,
  ): void;
}

declare const self: WorkerScope & {
  // `shell`: kept at install (vite.config.ts marks them).
  __WB_MANIFEST: { url: string; revision: string | null; shell: boolean }[];
  readonly indexedDB: IDBFactory;
};

const sw = self;
const MANIFEST = self.__WB_MANIFEST;
/** The build's files, under a name that changes with them. */
const SHELL = `${SHELL_CACHE_PREFIX}${hashOf(MANIFEST.map((entry) => `${entry.url}@${entry.revision ?? ''}`).join('|'))}`;
/** The pages the signed-in person opened: the account's, cleared at sign-out. */
const PAGES = PAGES_CACHE;
/** The page shown for any address with no network (the router draws the right one). */
const LAST_PAGE = '/__slabdesk-last-page';

/** Paths the worker never answers or keeps: the server decides each time. */
const NEVER = /^\/(api|hub|auth|sign-in|sign-out|healthz)(\/|$|\?)/;

/** An address of the app's router: no file name (a dot in the last part), not the server's own. */
const isAppRoute = (url: URL) => !NEVER.test(url.pathname) && !/\.[^/]*$/.test(url.pathname);

/** The boot facts every page of the app carries (server/routes/pages.ts); no other answer has them. */
const BOOT_FACT = /<meta name="slabdesk-mode" content="(live|test)"/;

function hashOf(text: string): string {
  let hash = 5381;
  for (let index = 0; index < text.length; index++) {
    hash = (Math.imul(hash, 33) ^ text.charCodeAt(index)) >>> 0;
  }
  return hash.toString(36);
}

// Once each: the list names the icons both as files and as the manifest's (addAll refuses twins).
const urlsOf = (entries: typeof MANIFEST) => [
  ...new Set(
    entries
      .map((entry) => new URL(entry.url, sw.registration.scope).href)
      .filter((url) => !url.endsWith('.html')),
  ),
];
/** Every file of the build: kept as it is used, else once the page is idle. */
const BUILD_FILES = new Set(urlsOf(MANIFEST));

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(urlsOf(MANIFEST.filter((entry) => entry.shell)));
      await sw.skipWaiting();
    })(),
  );
});

/** A file of the build, from the cache, else from the network and kept (its name is its hash). */
async function buildFile(request: Request): Promise<Response> {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && BUILD_FILES.has(request.url)) await cache.put(request.url, response.clone());
  return response;
}

/** The page is idle: the files it has not used yet are kept, one at a time, for a page opened offline. */
async function keepTheRest(): Promise<void> {
  const cache = await caches.open(SHELL);
  for (const url of BUILD_FILES) {
    if (await cache.match(url)) continue;
    const response = await fetch(url, { priority: 'low' });
    if (response.ok) await cache.put(url, response);
  }
}

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL) await caches.delete(name);
      }
      await sw.clients.claim();
      // The pages open now were loaded before this worker: kept too, so a reload offline opens.
      for (const client of await sw.clients.matchAll({ type: 'window' })) {
        const url = new URL(client.url);
        if (url.origin !== sw.location.origin || !isAppRoute(url)) continue;
        await page(new Request(url.href, { credentials: 'same-origin' })).catch(() => undefined);
      }
    })(),
  );
});

sw.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  // Sign-out: nothing of the account stays (its pages carry its name and token).
  if (type === 'sign-out') event.waitUntil(caches.delete(PAGES));
  if (type === 'page-idle') event.waitUntil(keepTheRest().catch(() => undefined));
});

/**
 * The app's page as the server gave it, to keep: a whole HTML page carrying the boot facts. The
 * server gives the app's page only to a signed-in session where sign-in is on (else it sends to
 * sign-in), so a kept page is always a signed-in one's. Anything else (a file, JSON, an error) is
 * not kept.
 */
async function appPage(response: Response): Promise<Response | null> {
  if (response.status !== 200 || response.type !== 'basic' || response.redirected) return null;
  const type = response.headers.get('content-type') ?? '';
  if (!/^text\/html(;|$)/i.test(type)) return null;
  const html = await response.clone().text();
  if (!BOOT_FACT.test(html)) return null;
  return new Response(html, { status: 200, headers: response.headers });
}

/** A page: the server's answer whenever there is one; the kept page only with no network. */
async function page(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    // Only a whole page of the app is kept; a redirect (to sign-in) passes as it is.
    const keep = await appPage(response);
    if (keep) {
      const cache = await caches.open(PAGES);
      await cache.put(request.url, keep.clone());
      await cache.put(new URL(LAST_PAGE, sw.registration.scope).href, keep);
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

/** The session ended (the server sent a page to sign-in saying so): its pages and copies go. */
async function sessionEnded(): Promise<void> {
  await caches.delete(PAGES);
  // Marked for the page's next open: it says what was waiting in the outbox, then clears it.
  const mark = await caches.open(SESSION_ENDED_CACHE);
  await mark.put(
    new URL('/__slabdesk-session-ended', sw.registration.scope).href,
    new Response(''),
  );
  await new Promise<void>((resolve) => {
    const deleting = sw.indexedDB.deleteDatabase(KEPT_DB);
    deleting.onsuccess = deleting.onerror = deleting.onblocked = () => resolve();
  });
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  // Sign-in itself is the server's; the worker only hears that the session ended.
  if (
    request.mode === 'navigate' &&
    url.pathname === '/sign-in' &&
    url.searchParams.get('ended') === '1'
  ) {
    event.waitUntil(sessionEnded().catch(() => undefined));
    return;
  }
  if (NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // A file opened as a page (a picture, the manifest) is the server's to answer, never kept.
    if (isAppRoute(url)) event.respondWith(page(request));
    return;
  }
  event.respondWith(buildFile(request));
});

/** What the hub pushes (server/push/push-part.ts): read tolerantly, a stranger's text never. */
function pushMessageOf(text: string): { title: string; body: string; url: string; tag: string } {
  const fallback = { title: 'Slabdesk', body: text.slice(0, 200), url: '/shows', tag: 'slabdesk' };
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const field = (name: string, or: string) =>
      typeof parsed[name] === 'string' && parsed[name] !== '' ? (parsed[name] as string) : or;
    const url = field('url', fallback.url);
    return {
      title: field('title', fallback.title),
      body: field('body', ''),
      // Only a path of this app: a push never sends the phone elsewhere.
      url: url.startsWith('/') && !url.startsWith('//') ? url : fallback.url,
      tag: field('tag', fallback.tag),
    };
  } catch {
    return fallback;
  }
}

sw.addEventListener('push', (event) => {
  const message = pushMessageOf(event.data?.text() ?? '');
  event.waitUntil(
    sw.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      renotify: true,
      icon: '/icon-192.png',
      data: { url: message.url },
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const path = typeof data?.url === 'string' ? data.url : '/shows';
  const target = new URL(path, sw.registration.scope).href;
  event.waitUntil(
    (async () => {
      // A window of the app already open goes to the slab; else a new one opens there.
      const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const mine = open.find((client) => new URL(client.url).origin === sw.location.origin);
      if (mine) {
        await mine.navigate(target).catch(() => undefined);
        await mine.focus();
        return;
      }
      await sw.clients.openWindow(target);
    })(),
  );
});

// A module: the declarations above are its own, not the page's globals.
export {};
