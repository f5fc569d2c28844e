// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useKeyboardShortcuts } from '../../src/app/keyboard-shortcuts';
import ShortcutsHelp from '../../src/app/shortcuts-help';

function Frame() {
  const [open, setOpen] = useState(false);
  const onHelp = useCallback(() => setOpen(true), []);
  useKeyboardShortcuts(onHelp);
  const location = useLocation();
  return (
    <>
      <p>at {location.pathname}</p>
      <main>
        <label>
          Note <input type="text" />
        </label>
        <label>
          Search <input type="search" />
        </label>
        <label>
          Pick <input type="checkbox" />
        </label>
        <Outlet />
      </main>
      <ShortcutsHelp open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function renderFrame() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <Frame />,
        children: ['', 'listings', 'orders', 'inventory'].map((path) => ({
          path,
          element: null,
        })),
      },
    ],
    { initialEntries: ['/orders'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => cleanup());

describe('the keyboard shortcuts', () => {
  it('g then l, o, i or h jumps to listings, orders, inventory or the overview', async () => {
    const router = renderFrame();
    const user = userEvent.setup();
    await user.keyboard('gl');
    expect(router.state.location.pathname).toBe('/listings');
    await user.keyboard('go');
    expect(router.state.location.pathname).toBe('/orders');
    await user.keyboard('gi');
    expect(router.state.location.pathname).toBe('/inventory');
    await user.keyboard('gh');
    expect(router.state.location.pathname).toBe('/');
    // A letter without g is no jump; nor is g with Ctrl.
    await user.keyboard('l');
    expect(router.state.location.pathname).toBe('/');
    await user.keyboard('{Control>}g{/Control}l');
    expect(router.state.location.pathname).toBe('/');
  });

  it('never fires while typing in a field, but does from a checkbox', async () => {
    const router = renderFrame();
    const user = userEvent.setup();
    const note = screen.getByRole('textbox', { name: 'Note' });
    await user.type(note, 'gl?/');
    expect(note).toHaveProperty('value', 'gl?/');
    expect(router.state.location.pathname).toBe('/orders');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Pick' }));
    await user.keyboard('gl');
    expect(router.state.location.pathname).toBe('/listings');
  });

  it('/ focuses the page’s search', async () => {
    renderFrame();
    const user = userEvent.setup();
    await user.keyboard('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search' }));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveProperty('value', '');
  });

  it('? opens the list of shortcuts; Escape closes it and focus goes back', async () => {
    const router = renderFrame();
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', { name: 'Pick' });
    await user.click(box);
    await user.keyboard('?');
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(help.textContent).toMatch(/Go to listings/);
    expect(help.textContent).toMatch(/Go to orders/);
    expect(help.textContent).toMatch(/Search this page/);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    // Shortcuts are off while it is open.
    await user.keyboard('gl');
    expect(router.state.location.pathname).toBe('/orders');
    await user.keyboard('{Escape}');
    await act(async () => {});
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(box);
  });
});
