import {
  Component,
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  type ReactNode,
} from 'react';
import { Router, type Params } from 'react-router';
import type {
  AppRoute,
  AppRouter,
  Blocked,
  BlockerFunction,
  RouteMatch,
  RouterState,
} from './router';

const RouterContext = createContext<AppRouter | null>(null);
/** The router's state as the provider shows it (a page drawn in a transition shows when done). */
const RouterStateContext = createContext<RouterState | null>(null);
/** What a layout shows inside itself: the matched route below it. */
const OutletContext = createContext<ReactNode>(null);

function useAppRouter(): AppRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Outside the AppRouterProvider');
  return router;
}

function useRouterState(): RouterState {
  const state = useContext(RouterStateContext);
  if (!state) throw new Error('Outside the AppRouterProvider');
  return state;
}

/**
 * Whether `next` replaces a page in view with another one. The first page is not one: with
 * nothing to keep in view meanwhile, it is drawn at once (in a transition, the page's queries
 * answering page after page interrupted its drawing each time, and the page appeared only once
 * they were all in).
 */
const drawsAnotherPage = (shown: RouterState, next: RouterState) =>
  shown.ready &&
  next.ready &&
  next.error === undefined &&
  next.matches.at(-1)?.route !== shown.matches.at(-1)?.route;

/**
 * How long a move to another page may be drawn in a transition before it is drawn at once. React
 * starts a transition over after every redraw of the app outside it, and while the pages' reads
 * answer page after page those come every few milliseconds: the move could wait for seconds.
 */
const MOVE_PATIENCE_MS = 300;

/**
 * The router's state for React. A move to another page is drawn in a transition: React draws
 * the new page in slices, between which the browser paints and answers input (a page and its
 * table drawn in one go held the main thread for one long task); the page before stays in view
 * until it is done, or for MOVE_PATIENCE_MS at most. Everything else (a move within the page, a
 * held move, the loading mark) is shown at once.
 */
function useShownState(router: AppRouter): RouterState {
  const [shown, setShown] = useState(router.state);
  useEffect(() => {
    let latest = shown;
    let patience: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      const next = router.state;
      if (next === latest) return;
      const transition = drawsAnotherPage(latest, next);
      latest = next;
      clearTimeout(patience);
      if (transition) {
        startTransition(() => setShown(next));
        // Drawn by then, this sets the state shown already: React does nothing.
        patience = setTimeout(() => setShown(next), MOVE_PATIENCE_MS);
      } else setShown(next);
    };
    const unsubscribe = router.subscribe(update);
    update(); // a change between the first render and this subscription
    return () => {
      clearTimeout(patience);
      unsubscribe();
    };
    // Subscribed once per router: `shown` is only the starting point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [router]);
  return shown;
}

/** Whether a move to another page is waiting for its code or its loader. */
export function useNavigationState(): RouterState['navigation'] {
  return useRouterState().navigation;
}

/** The address's parameters (`:listingId` and the like) of the page shown. */
export function useParams(): Readonly<Params> {
  return useRouterState().matches.at(-1)?.params ?? {};
}

/** The router's own move (stable: the same function on every render). */
export function useMove(): AppRouter['navigate'] {
  return useAppRouter().navigate;
}

/** Where a layout shows the page inside it. */
export function Outlet() {
  return useContext(OutletContext);
}

/**
 * Holds every move for which `shouldBlock` says so (links, back and forward), until the seller
 * confirms (`proceed`) or cancels (`reset`); null while nothing is held.
 */
export function useBlocker(shouldBlock: BlockerFunction): Blocked | null {
  const router = useAppRouter();
  useEffect(() => {
    router.setBlocker(shouldBlock);
    return () => router.setBlocker(null);
  }, [router, shouldBlock]);
  return useRouterState().blocked;
}

/** A route's page, its chunk already loaded (the router shows a route only then). */
function Page({ route }: { route: AppRoute }) {
  const Loaded = useAppRouter().pageOf(route)?.Component;
  return Loaded ? <Loaded /> : null;
}

/** The matched routes, each inside the one before it (a page inside its layout). */
function nest(matches: readonly RouteMatch[]): ReactNode {
  return matches.reduceRight<ReactNode>((inner, { route }) => {
    const element = route.page ? <Page route={route} /> : (route.element ?? <Outlet />);
    return <OutletContext.Provider value={inner}>{element}</OutletContext.Provider>;
  }, null);
}

type ShowError = (error: unknown) => ReactNode;

interface BoundaryState {
  error: unknown;
  failed: boolean;
  at: string;
}

/** Shows `fallback` in place of a page that throws while it renders, until the location moves. */
class PageErrorBoundary extends Component<
  { fallback: ShowError; at: string; children: ReactNode },
  BoundaryState
> {
  override state: BoundaryState = { error: undefined, failed: false, at: this.props.at };
  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }
  static getDerivedStateFromProps(props: { at: string }, state: BoundaryState) {
    return props.at === state.at ? null : { error: undefined, failed: false, at: props.at };
  }
  override render() {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/**
 * Shows the router's location: `fallback` until the first page is ready, `error` when a page
 * failed to load or render (until the seller moves on).
 */
export function AppRouterProvider({
  router,
  fallback = null,
  error,
}: {
  router: AppRouter;
  fallback?: ReactNode;
  error: ShowError;
}) {
  const state = useShownState(router);
  return (
    <RouterContext.Provider value={router}>
      <RouterStateContext.Provider value={state}>
        <Router
          location={state.location}
          navigationType={state.action}
          navigator={router.navigator}
        >
          {!state.ready ? (
            fallback
          ) : state.error !== undefined ? (
            error(state.error)
          ) : (
            <PageErrorBoundary at={state.location.key} fallback={error}>
              {nest(state.matches)}
            </PageErrorBoundary>
          )}
        </Router>
      </RouterStateContext.Provider>
    </RouterContext.Provider>
  );
}
