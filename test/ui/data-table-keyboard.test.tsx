// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider, useParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, withIdsSelected, type Column } from '../../src/components/data-table';

interface Row {
  id: string;
  title: string;
  price: number;
}

const ROWS: Row[] = Array.from({ length: 8 }, (_, i) => ({
  id: `r${i}`,
  title: `Card ${i}`,
  price: 10 + i,
}));

const COLUMNS: Column<Row>[] = [
  {
    id: 'title',
    header: 'Listing',
    sortable: true,
    cell: (row) => <Link to={`/rows/${row.id}`}>{row.title}</Link>,
  },
  { id: 'price', header: 'Price', sortable: true, cell: (row) => `$${row.price}` },
  { id: 'note', header: 'Note', cell: () => 'n/a' },
];

function Table() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return (
    <>
      <input aria-label="Before" />
      <DataTable
        caption="Things"
        rows={ROWS}
        columns={COLUMNS}
        getRowId={(row) => row.id}
        sort={{ id: 'price', direction: 'desc' }}
        onSortChange={() => {}}
        selection={{
          selected,
          rowLabel: (row) => row.title,
          onChange: (ids, on) => setSelected((current) => withIdsSelected(current, ids, on)),
        }}
      />
      <button type="button">After</button>
    </>
  );
}

function Opened() {
  const { id } = useParams();
  return <h1>Opened {id}</h1>;
}

function renderTable() {
  const router = createMemoryRouter([
    { path: '/', element: <Table /> },
    { path: '/rows/:id', element: <Opened /> },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

const table = () => screen.getByRole('table', { name: 'Things' });
const tabStops = () =>
  Array.from(table().querySelectorAll<HTMLElement>('[tabindex]')).filter((e) => e.tabIndex >= 0);

afterEach(() => cleanup());

describe('the data table from the keyboard', () => {
  it('is one tab stop: Tab enters on the first row’s link and the next Tab leaves the table', async () => {
    renderTable();
    const user = userEvent.setup();
    expect(tabStops()).toHaveLength(1);
    await user.click(screen.getByRole('textbox', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 0' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 0' }));
  });

  it('moves between rows with the arrow keys, j and k, Home and End, keeping one tab stop', async () => {
    renderTable();
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Before' }));
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 2' }));
    await user.keyboard('k');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 1' }));
    await user.keyboard('j');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 2' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 7' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 0' }));
    // Left from the link: the row's checkbox; up from the first row: the header row.
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select Card 0' }));
    await user.keyboard('{ArrowUp}');
    expect(within(table()).getAllByRole('row')[0]!.contains(document.activeElement)).toBe(true);
    expect(tabStops()).toEqual([document.activeElement]);
    // Leaving and coming back lands where the seller was.
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    await user.tab();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Card 2' }));
  });

  it('Space selects the focused row (Shift+Space the range) and Enter opens it', async () => {
    const router = renderTable();
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Before' }));
    await user.tab();
    await user.keyboard('{ArrowDown}');
    await user.keyboard(' ');
    const box = (n: number) =>
      screen.getByRole('checkbox', { name: `Select Card ${n}` }) as HTMLInputElement;
    expect(box(1).checked).toBe(true);
    expect(box(0).checked).toBe(false);
    await user.keyboard('{ArrowDown}{ArrowDown}{Shift>} {/Shift}');
    expect([1, 2, 3].map((n) => box(n).checked)).toEqual([true, true, true]);
    expect(box(4).checked).toBe(false);
    await user.keyboard(' ');
    expect(box(3).checked).toBe(false);
    // Enter on the checkbox opens the row as well as Enter on its link.
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(box(3));
    await user.keyboard('{Enter}');
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/rows/r3');
    expect(screen.getByRole('heading', { name: 'Opened r3' })).toBeInTheDocument();
  });

  it('says the sort state on every sortable header and none on the others', () => {
    renderTable();
    const headers = within(table()).getAllByRole('columnheader');
    const sortOf = (name: RegExp) =>
      headers.find((h) => name.test(h.textContent ?? ''))!.getAttribute('aria-sort');
    expect(sortOf(/Listing/)).toBe('none');
    expect(sortOf(/Price/)).toBe('descending');
    expect(sortOf(/Note/)).toBeNull();
  });
});
