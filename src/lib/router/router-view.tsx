import {
  Component,
  createContext,
  useContext,
  useEffect,
  useSyncExternalStore,
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
/** What a layout shows inside itself: the matched route below it. */
const OutletContext = createContext<ReactNode>(null);

function useAppRouter(): AppRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Outside the AppRouterProvider');
  return router;
}

function useRouterState(): RouterState {
  const router = useAppRouter();
  return useSyncExternalStore(router.subscribe, () => router.state);
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
  const state = useSyncExternalStore(router.subscribe, () => router.state);
  return (
    <RouterContext.Provider value={router}>
      <Router location={state.location} navigationType={state.action} navigator={router.navigator}>
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
    </RouterContext.Provider>
  );
}
