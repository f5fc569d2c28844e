// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FiltersSheet } from '../../src/components/filters-sheet';
import { ActiveFilters, type ActiveFilter } from '../../src/components/active-filters';

afterEach(cleanup);

/** A list page's filters as the catalogue wires them: a sheet of selects and the pills. */
function Filters() {
  const [grader, setGrader] = useState('');
  const pills: ActiveFilter[] = grader ? [{ id: 'grader', label: 'Grader', value: grader }] : [];
  return (
    <>
      <FiltersSheet count={pills.length}>
        <label htmlFor="grader">Grader</label>
        <select id="grader" value={grader} onChange={(event) => setGrader(event.target.value)}>
          <option value="">Any</option>
          <option value="PSA">PSA</option>
        </select>
      </FiltersSheet>
      <ActiveFilters filters={pills} onRemove={() => setGrader('')} />
    </>
  );
}

describe('the Filters sheet', () => {
  it('opens a named dialog with the filters, counts them on its button, and closes on Escape with focus back', async () => {
    const user = userEvent.setup();
    render(<Filters />);
    const button = screen.getByRole('button', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    // Closed: the filters are not in the page (nothing to tab through on the way to the results).
    expect(screen.queryByRole('combobox', { name: 'Grader' })).toBeNull();

    await user.click(button);
    const sheet = screen.getByRole('dialog', { name: 'Filters' });
    await user.selectOptions(within(sheet).getByRole('combobox', { name: 'Grader' }), 'PSA');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveTextContent('Filters (1)');

    // The filter in force is a pill that removes it.
    const pills = screen.getByRole('list', { name: 'Filters in force' });
    expect(within(pills).getByRole('listitem')).toHaveTextContent('Grader: PSA');
    await user.click(screen.getByRole('button', { name: 'Remove the filter Grader: PSA' }));
    expect(screen.queryByRole('list', { name: 'Filters in force' })).toBeNull();
    expect(button).toHaveTextContent(/^Filters$/);
  });

  it('closes on Done, focus back on its button', async () => {
    const user = userEvent.setup();
    render(<Filters />);
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveFocus();
  });
});
