// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  createMemoryRouter,
  Link,
  Outlet,
  RouterProvider,
  useNavigation,
  useSearchParams,
  type RouteObject,
} from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { onEntry } from '../../src/app/routes';
import { UnsavedChangesGuard } from '../../src/components/unsaved-changes-guard';

/** A promise settled from outside: a page chunk that arrives when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => (resolve = ok));
  return { promise, resolve };
}

const named = (name: string) => ({
  Component: function Named() {
    const [search] = useSearchParams();
    return <h1>{[name, search.get('q')].filter(Boolean).join(' q=')}</h1>;
  },
});

/** The dashboard's frame in small: links, the busy mark on main, the page inside. */
function Frame() {
  const navigation = useNavigation();
  return (
    <main aria-busy={navigation.state === 'loading'}>
      <Link to="/">Home</Link> <Link to="/things/7">Thing 7</Link> <Link to="/form">Form</Link>
      <Outlet />
    </main>
  );
}

function DirtyForm() {
  const [dirty, setDirty] = useState(false);
  return (
    <>
      <h1>Form</h1>
      <label>
        Price <input onChange={() => setDirty(true)} />
      </label>
      <UnsavedChangesGuard when={dirty} />
    </>
  );
}

function show(children: RouteObject[], at = '/') {
  const router = createMemoryRouter([{ path: '/', Component: Frame, children }], {
    initialEntries: [at],
  });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => cleanup());

describe('the dashboard on the data router', () => {
  it('starts a page’s reads beside its chunk; the page before stays, marked busy', async () => {
    const chunk = deferred<ReturnType<typeof named>>();
    const calls: string[] = [];
    const router = show([
      { index: true, Component: named('Home').Component },
      {
        path: 'things/:id',
        loader: ({ params }) => (calls.push(`read ${params.id}`), null),
        lazy: () => (calls.push('chunk'), chunk.promise),
      },
    ]);
    await userEvent.click(screen.getByRole('link', { name: 'Thing 7' }));
    expect(calls.sort()).toEqual(['chunk', 'read 7']);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    await act(async () => chunk.resolve(named('Thing')));
    expect(await screen.findByRole('heading', { name: 'Thing' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'false');
    expect(router.state.location.pathname).toBe('/things/7');
  });

  it('runs the loader of a page whose filters live in the address on entry only', async () => {
    const reads: string[] = [];
    const router = show([
      { index: true, Component: named('Home').Component },
      {
        path: 'things/:id',
        loader: ({ request }) => (reads.push(new URL(request.url).search), null),
        shouldRevalidate: onEntry,
        Component: named('Thing').Component,
      },
    ]);
    await act(() => router.navigate('/things/1'));
    await act(() => router.navigate('/things/1?q=b'));
    expect(await screen.findByRole('heading', { name: 'Thing q=b' })).toBeInTheDocument();
    expect(reads).toEqual(['']);
    await act(() => router.navigate('/things/2'));
    expect(reads).toEqual(['', '']);
  });

  it('asks before leaving a form with unsaved changes: a link, and back', async () => {
    const user = userEvent.setup();
    const router = show([
      { index: true, Component: named('Home').Component },
      { path: 'form', Component: DirtyForm },
    ]);
    await user.click(screen.getByRole('link', { name: 'Form' }));
    await user.type(await screen.findByLabelText('Price'), '12');

    await user.click(screen.getByRole('link', { name: 'Home' }));
    await user.click(await screen.findByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/form');

    await act(() => router.navigate(-1));
    expect(await screen.findByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/form');
    await user.click(screen.getByRole('button', { name: 'Leave and lose changes' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
