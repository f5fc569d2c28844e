import {
  createPath,
  matchRoutes,
  NavigationType,
  type Location,
  type Navigator,
  type Params,
  type RouteObject,
  type To,
} from 'react-router';
import type { ComponentType, ReactNode } from 'react';
import { locationOf, type AppHistory } from './history';

/** A page's code chunk: what its `page` import resolves to. */
export interface PageModule {
  Component: ComponentType;
}

/** What a route's loader is given: the address's parameters and the whole address. */
export interface LoaderArgs {
  params: Params;
  url: URL;
}

/**
 * One route of the dashboard. A page is its own code chunk (`page`); its `loader` starts the
 * page's reads while that chunk loads, and the move to the page completes once both have
 * resolved (a loader resolves as soon as its reads are under way, not when they answer).
 */
export interface AppRoute {
  path?: string;
  index?: boolean;
  /** What the route shows when it has no page chunk (a layout's default is its children). */
  element?: ReactNode;
  page?: () => Promise<PageModule>;
  loader?: (args: LoaderArgs) => unknown;
  /**
   * The loader runs when the page is entered, not again for a change of the address's query
   * (for pages that keep their filters there and follow them with their own queries).
   */
  onEntry?: boolean;
  children?: AppRoute[];
}

/** Whether a move (to `nextLocation`) must wait for the seller's word. */
export type BlockerFunction = (args: {
  currentLocation: Location;
  nextLocation: Location;
  historyAction: NavigationType;
}) => boolean;

/** A move held by a blocker: go on with it, or stay. */
export interface Blocked {
  proceed(): void;
  reset(): void;
}

/** A route the location matched, with the address's parameters up to it. */
export interface RouteMatch {
  route: AppRoute;
  params: Params;
}

export interface RouterState {
  /** The location shown (before the first page is ready: the one being loaded). */
  location: Location;
  /** The routes it matched, outermost first (the layout, then the page). */
  matches: RouteMatch[];
  action: NavigationType;
  /** False until the first page's chunk (and loader) are in. */
  ready: boolean;
  /** `loading` while a move waits for its page's chunk or loader. */
  navigation: 'idle' | 'loading';
  /** Why the page failed to load (its chunk or its loader), if it did. */
  error?: unknown;
  blocked: Blocked | null;
}

export interface AppRouter {
  readonly state: RouterState;
  readonly navigator: Navigator;
  /** Moves to `to` (a new history entry, or in place of this one with `replace`). */
  navigate(to: To, options?: { replace?: boolean; state?: unknown }): void;
  subscribe(listener: () => void): () => void;
  /** The loaded chunk of a route's page (present once the route is shown). */
  pageOf(route: AppRoute): PageModule | undefined;
  setBlocker(blocker: BlockerFunction | null): void;
  dispose(): void;
}

/** Route objects for matching, each holding its AppRoute. */
function matchable(routes: readonly AppRoute[]): RouteObject[] {
  return routes.map((route) =>
    route.index
      ? { index: true, handle: route }
      : {
          path: route.path,
          handle: route,
          ...(route.children ? { children: matchable(route.children) } : {}),
        },
  );
}

const sameAddress = (a: Location, b: Location) =>
  a.pathname === b.pathname && a.search === b.search;

/**
 * The dashboard's router over `history`: it matches each new location, starts the matched
 * routes' loaders and page chunks side by side, and shows the location once they are in (the
 * page before it stays in view, marked loading, meanwhile). A blocker may hold any move,
 * back and forward included, for the seller to confirm or cancel.
 */
export function createAppRouter(routes: readonly AppRoute[], history: AppHistory): AppRouter {
  const matching = matchable(routes);
  const pages = new Map<AppRoute, PageModule>();
  const listeners = new Set<() => void>();
  let state: RouterState = {
    location: history.location,
    matches: [],
    action: NavigationType.Pop,
    ready: false,
    navigation: 'idle',
    blocked: null,
  };
  let blocker: BlockerFunction | null = null;
  let moves = 0;
  /** Back/forward moves that are our own undoing of a blocked one. */
  let undoing = 0;
  /** The next back/forward move is one the seller confirmed. */
  let confirmed = false;

  const set = (change: Partial<RouterState>) => {
    state = { ...state, ...change };
    for (const listener of listeners) listener();
  };

  const loadPage = async (route: AppRoute, page: () => Promise<PageModule>) => {
    pages.set(route, await page());
  };

  const commit = (
    location: Location,
    matches: RouteMatch[],
    action: NavigationType,
    error?: unknown,
  ) => {
    if (action === NavigationType.Push) history.push(location);
    else if (action === NavigationType.Replace) history.replace(location);
    set({ location, matches, action, ready: true, navigation: 'idle', error });
  };

  const start = (location: Location, action: NavigationType) => {
    const move = ++moves;
    const previous = state.ready ? state.location : null;
    const url = new URL(createPath(location), globalThis.location?.origin ?? 'http://localhost');
    const work: Promise<unknown>[] = [];
    const matches = (matchRoutes(matching, location) ?? []).map(({ route, params }) => ({
      route: route.handle as AppRoute,
      params,
    }));
    const entered = !previous || previous.pathname !== location.pathname;
    for (const { route: app, params } of matches) {
      if (app.loader && (entered || (!app.onEntry && !sameAddress(previous, location)))) {
        const loader = app.loader;
        work.push(Promise.resolve().then(() => loader({ params, url })));
      }
      if (app.page && !pages.has(app)) work.push(loadPage(app, app.page));
    }
    if (!work.length) return commit(location, matches, action);
    set({ navigation: 'loading' });
    Promise.all(work).then(
      () => move === moves && commit(location, matches, action),
      (error: unknown) => move === moves && commit(location, matches, action, error ?? 'Failed'),
    );
  };

  const held = (nextLocation: Location, historyAction: NavigationType) =>
    !!blocker &&
    state.ready &&
    blocker({ currentLocation: state.location, nextLocation, historyAction });

  /** Holds a move until the seller says: `go` carries it on, or nothing happens. */
  const holdFor = (go: () => void) =>
    set({
      blocked: {
        proceed: () => {
          set({ blocked: null });
          go();
        },
        reset: () => set({ blocked: null }),
      },
    });

  const navigate = (to: To, routeState: unknown, action: NavigationType) => {
    const next = locationOf(to, routeState);
    if (!held(next, action)) return start(next, action);
    holdFor(() => start(next, action));
  };

  const unlisten = history.listen((location, delta) => {
    if (undoing > 0) {
      undoing -= 1;
      return;
    }
    if (confirmed || !held(location, NavigationType.Pop)) {
      confirmed = false;
      return start(location, NavigationType.Pop);
    }
    // Put the seller back where they were until they say whether to leave.
    undoing += 1;
    history.go(-delta);
    holdFor(() => {
      confirmed = true;
      history.go(delta);
    });
  });

  start(history.location, NavigationType.Pop);

  return {
    get state() {
      return state;
    },
    navigate: (to, options = {}) =>
      navigate(to, options.state, options.replace ? NavigationType.Replace : NavigationType.Push),
    navigator: {
      createHref: (to) => history.createHref(to),
      go: (delta) => history.go(delta),
      push: (to, routeState) => navigate(to, routeState, NavigationType.Push),
      replace: (to, routeState) => navigate(to, routeState, NavigationType.Replace),
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pageOf: (route) => pages.get(route),
    setBlocker(next) {
      blocker = next;
    },
    dispose() {
      unlisten();
      listeners.clear();
    },
  };
}

/**
 * Resolves once the first page is in (its chunk and loader, or the error that stopped them), or
 * after `patienceMs` whatever the router's state: never rejects.
 */
export function firstPageSettled(router: AppRouter, patienceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => router.state.ready || router.state.error !== undefined;
    if (settled()) return resolve();
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, patienceMs);
    const unsubscribe = router.subscribe(() => {
      if (settled()) done();
    });
  });
}
