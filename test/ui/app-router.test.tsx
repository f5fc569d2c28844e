// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, use, useSyncExternalStore } from 'react';
import userEvent from '@testing-library/user-event';
import { useLocation, useSearchParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Link } from '../../src/components/link';
import { browserHistory, memoryHistory } from '../../src/lib/router/history';
import {
  createAppRouter,
  firstPageSettled,
  type AppRoute,
  type LoaderArgs,
  type PageModule,
} from '../../src/lib/router/router';
import {
  AppRouterProvider,
  Outlet,
  useBlocker,
  useNavigationState,
  useParams,
} from '../../src/lib/router/router-view';

/** A promise settled from outside: a page chunk or loader that arrives when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const pageOf = (name: string): PageModule => ({
  Component: function Named() {
    const params = useParams();
    const [search] = useSearchParams();
    return (
      <h1>
        {name}
        {params.id ? ` ${params.id}` : ''}
        {search.get('q') ? ` q=${search.get('q')}` : ''}
      </h1>
    );
  },
});

function Frame() {
  const navigation = useNavigationState();
  const { pathname } = useLocation();
  return (
    <main aria-busy={navigation === 'loading'}>
      <nav>
        <Link to="/">Home</Link> <Link to="/things/7">Thing 7</Link>
      </nav>
      <p>at {pathname}</p>
      <Outlet />
    </main>
  );
}

const frame = (children: AppRoute[]): AppRoute[] => [{ path: '/', element: <Frame />, children }];

/**
 * Something beside the router that redraws every 2 ms, as the dashboard's shell does while a
 * page's reads answer page after page.
 */
function redrawing() {
  let ticks = 0;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const timer = setInterval(() => {
    ticks++;
    for (const listener of listeners) listener();
  }, 2);
  return {
    Ticker: () => <p>tick {useSyncExternalStore(subscribe, () => ticks)}</p>,
    stop: () => clearInterval(timer),
  };
}

/** A page that takes about 60 ms to draw (30 rows of 2 ms each). */
function slowPage(name: string): PageModule {
  function SlowRow() {
    const until = performance.now() + 2;
    while (performance.now() < until);
    return <li>row</li>;
  }
  return {
    Component: () => (
      <>
        <h1>{name}</h1>
        <ul>
          {Array.from({ length: 30 }, (_, i) => (
            <SlowRow key={i} />
          ))}
        </ul>
      </>
    ),
  };
}

function show(routes: AppRoute[], at = '/') {
  const router = createAppRouter(routes, memoryHistory([at]));
  render(
    <AppRouterProvider
      router={router}
      fallback={<p>Starting</p>}
      error={(error) => <p role="alert">Failed: {String(error)}</p>}
    />,
  );
  return router;
}

afterEach(() => cleanup());

describe('the app router', () => {
  it('draws another page in a transition: the page before stays until the new one is drawn', async () => {
    // A page that cannot finish drawing until the test says (it suspends on a promise).
    const data = deferred<string>();
    const slow: PageModule = {
      Component: function Slow() {
        return <h1>Slow {use(data.promise)}</h1>;
      },
    };
    const router = show([
      {
        path: '/',
        element: (
          <Suspense fallback={<p>Drawing</p>}>
            <Frame />
          </Suspense>
        ),
        children: [
          { index: true, page: async () => pageOf('Home') },
          { path: 'slow', page: async () => slow },
        ],
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeDefined();
    await act(async () => router.navigate('/slow'));
    // Drawn at once, the suspended page would have put the frame's fallback in its place; in a
    // transition the page before stays in view, and the frame with it.
    expect(screen.queryByText('Drawing')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Home' })).toBeDefined();
    expect(screen.getByText('at /')).toBeDefined();
    await act(async () => data.resolve('ready'));
    expect(await screen.findByRole('heading', { name: 'Slow ready' })).toBeDefined();
    expect(screen.getByText('at /slow')).toBeDefined();
  });

  it('draws the first page at once, however often the app around it redraws meanwhile', async () => {
    // Drawn in a transition, the page was started over after each redraw beside it and appeared
    // only when React stopped waiting for it (after seconds); drawn at once, it appears at once.
    const redraws = redrawing();
    try {
      const router = createAppRouter(
        frame([{ index: true, page: async () => slowPage('First') }]),
        memoryHistory(['/']),
      );
      render(
        <>
          <redraws.Ticker />
          <AppRouterProvider router={router} fallback={<p>Starting</p>} error={() => null} />
        </>,
      );
      expect(
        await screen.findByRole('heading', { name: 'First' }, { timeout: 1500 }),
      ).toBeDefined();
    } finally {
      redraws.stop();
    }
  });

  it('draws a move to another page within a moment, however often the app around it redraws', async () => {
    const redraws = redrawing();
    try {
      const router = createAppRouter(
        frame([
          { index: true, page: async () => pageOf('Home') },
          { path: 'slow', page: async () => slowPage('Slow') },
        ]),
        memoryHistory(['/']),
      );
      render(
        <>
          <redraws.Ticker />
          <AppRouterProvider router={router} fallback={<p>Starting</p>} error={() => null} />
        </>,
      );
      expect(await screen.findByRole('heading', { name: 'Home' })).toBeDefined();
      // Outside act(): React draws as in the browser, the transition in slices.
      router.navigate('/slow');
      // In a transition alone, the page was started over after each redraw: seconds.
      expect(await screen.findByRole('heading', { name: 'Slow' }, { timeout: 1500 })).toBeDefined();
    } finally {
      redraws.stop();
    }
  });

  it('starts a page’s loader and its chunk together and shows the page once both are in', async () => {
    const chunk = deferred<PageModule>();
    const calls: string[] = [];
    const router = show(
      frame([
        { index: true, page: () => Promise.resolve(pageOf('Home')) },
        {
          path: 'things/:id',
          loader: ({ params, url }: LoaderArgs) => calls.push(`load ${params.id} ${url.pathname}`),
          page: () => {
            calls.push('chunk');
            return chunk.promise;
          },
        },
      ]),
    );
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Thing 7' }));
    // Both started; the page before stays in view, marked busy, until the chunk arrives.
    expect(calls.sort()).toEqual(['chunk', 'load 7 /things/7']);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    expect(router.state.location.pathname).toBe('/');

    await act(async () => chunk.resolve(pageOf('Thing')));
    expect(await screen.findByRole('heading', { name: 'Thing 7' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'false');
    expect(router.state.location.pathname).toBe('/things/7');
  });

  it('runs an on-entry loader when its page is entered, not for a change of the query', async () => {
    const entered: string[] = [];
    const always: string[] = [];
    const router = show(
      frame([
        {
          index: true,
          loader: ({ url }) => always.push(url.search),
          page: () => Promise.resolve(pageOf('Home')),
        },
        {
          path: 'things/:id',
          onEntry: true,
          loader: ({ url }) => entered.push(url.search),
          page: () => Promise.resolve(pageOf('Thing')),
        },
      ]),
    );
    await screen.findByRole('heading', { name: 'Home' });
    act(() => router.navigate('/?q=a'));
    await screen.findByRole('heading', { name: 'Home q=a' });
    expect(always).toEqual(['', '?q=a']);

    act(() => router.navigate('/things/1'));
    await screen.findByRole('heading', { name: 'Thing 1' });
    act(() => router.navigate('/things/1?q=b'));
    await screen.findByRole('heading', { name: 'Thing 1 q=b' });
    expect(entered).toEqual(['']);
    act(() => router.navigate('/things/2'));
    await screen.findByRole('heading', { name: 'Thing 2' });
    expect(entered).toEqual(['', '']);
  });

  it('shows only the last of two moves made in a row', async () => {
    const slow = deferred<PageModule>();
    const router = show(
      frame([
        { index: true, page: () => Promise.resolve(pageOf('Home')) },
        { path: 'slow', page: () => slow.promise },
        { path: 'fast', page: () => Promise.resolve(pageOf('Fast')) },
      ]),
    );
    await screen.findByRole('heading', { name: 'Home' });
    act(() => router.navigate('/slow'));
    act(() => router.navigate('/fast'));
    await screen.findByRole('heading', { name: 'Fast' });
    await act(async () => slow.resolve(pageOf('Slow')));
    expect(screen.getByRole('heading', { name: 'Fast' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/fast');
  });

  it('shows why a page failed to load, and the next move clears it', async () => {
    const router = show(
      frame([
        { index: true, page: () => Promise.resolve(pageOf('Home')) },
        { path: 'broken', page: () => Promise.reject(new Error('chunk missing')) },
      ]),
    );
    await screen.findByRole('heading', { name: 'Home' });
    act(() => router.navigate('/broken'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed: Error: chunk missing');
    act(() => router.navigate('/'));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('holds a move while a blocker says so, then goes on or stays as the seller says', async () => {
    function Guarded() {
      const blocked = useBlocker(({ nextLocation }) => nextLocation.pathname !== '/form');
      return (
        <>
          <h1>Form</h1>
          {blocked && (
            <div role="dialog" aria-label="Leave?">
              <button onClick={blocked.reset}>Stay</button>
              <button onClick={blocked.proceed}>Leave</button>
            </div>
          )}
        </>
      );
    }
    const router = show(
      frame([
        { index: true, page: () => Promise.resolve(pageOf('Home')) },
        { path: 'form', page: () => Promise.resolve({ Component: Guarded }) },
      ]),
    );
    await screen.findByRole('heading', { name: 'Home' });
    act(() => router.navigate('/form'));
    await screen.findByRole('heading', { name: 'Form' });

    // A link: held, then stayed.
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/form');

    // Back: held (the history is put back where it was), then confirmed.
    act(() => router.navigator.go(-1));
    await screen.findByRole('dialog', { name: 'Leave?' });
    expect(router.state.location.pathname).toBe('/form');
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe("the first draw's wait for the first page", () => {
  /** Whether `promise` has settled after the browser's queued tasks have run. */
  const settledSoon = async (promise: Promise<void>) => {
    let settled = false;
    void promise.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    return settled;
  };

  it('ends once the first page’s chunk and loader are in, not before', async () => {
    const chunk = deferred<PageModule>();
    const loader = deferred<void>();
    const router = createAppRouter(
      frame([{ index: true, page: () => chunk.promise, loader: () => loader.promise }]),
      memoryHistory(['/']),
    );
    const wait = firstPageSettled(router, 10_000);
    expect(await settledSoon(wait)).toBe(false);
    chunk.resolve(pageOf('Home'));
    expect(await settledSoon(wait)).toBe(false);
    loader.resolve();
    expect(await settledSoon(wait)).toBe(true);
    expect(router.state.ready).toBe(true);
    // Asked again once the page is in, it ends at once.
    expect(await settledSoon(firstPageSettled(router, 10_000))).toBe(true);
    router.dispose();
  });

  it('ends when the first page failed to load', async () => {
    const chunk = deferred<PageModule>();
    const router = createAppRouter(
      frame([{ index: true, page: () => chunk.promise }]),
      memoryHistory(['/']),
    );
    const wait = firstPageSettled(router, 10_000);
    chunk.reject(new Error('chunk missing'));
    expect(await settledSoon(wait)).toBe(true);
    expect(router.state.error).toBeInstanceOf(Error);
    router.dispose();
  });

  it('ends after its patience when the first page does not come', async () => {
    const router = createAppRouter(
      frame([{ index: true, page: () => new Promise<PageModule>(() => undefined) }]),
      memoryHistory(['/']),
    );
    const started = performance.now();
    await firstPageSettled(router, 40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(router.state.ready).toBe(false);
    router.dispose();
  });
});

describe('the browser history', () => {
  it('numbers its entries so that back and forward say how far they went', async () => {
    window.history.replaceState(null, '', '/');
    const history = browserHistory();
    const moves: string[] = [];
    const stop = history.listen((location, delta) => moves.push(`${location.pathname} ${delta}`));
    history.push({ ...history.location, pathname: '/a', key: 'a' });
    history.push({ ...history.location, pathname: '/b', key: 'b' });
    expect(window.location.pathname).toBe('/b');

    const popped = () =>
      new Promise((ok) => window.addEventListener('popstate', ok, { once: true }));
    let pop = popped();
    history.go(-2);
    await pop;
    pop = popped();
    history.go(1);
    await pop;
    stop();
    expect(moves).toEqual(['/ -2', '/a 1']);
    expect(history.location.key).toBe('a');
  });
});
