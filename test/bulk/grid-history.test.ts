import { describe, expect, it } from 'vitest';
import { GridHistory } from '../../src/features/listings/bulk-edit/grid/grid-history';

describe('the grid history', () => {
  it('undoes and redoes steps in order, each as a whole', () => {
    const history = new GridHistory();
    history.record({
      label: 'Paste 2 cells',
      changes: [
        { index: 0, field: 'price', before: '10.00', after: '20.00' },
        { index: 1, field: 'price', before: '11.00', after: '21.00' },
      ],
    });
    history.record({
      label: 'Trades on',
      changes: [{ index: 0, field: 'acceptsTrades', before: false, after: true }],
    });
    // The step undo takes back is the last one, by its label.
    expect(history.undo()).toEqual({
      label: 'Trades on',
      changes: [{ index: 0, field: 'acceptsTrades', value: false }],
    });
    expect(history.undo()).toEqual({
      label: 'Paste 2 cells',
      changes: [
        { index: 1, field: 'price', value: '11.00' },
        { index: 0, field: 'price', value: '10.00' },
      ],
    });
    expect(history.canUndo).toBe(false);
    expect(history.undo()).toBeNull();
    expect(history.redo()!.changes).toEqual([
      { index: 0, field: 'price', value: '20.00' },
      { index: 1, field: 'price', value: '21.00' },
    ]);
    expect(history.redo()).toEqual({
      label: 'Trades on',
      changes: [{ index: 0, field: 'acceptsTrades', value: true }],
    });
  });

  it('joins keystrokes in one cell into one step until the cell is left', () => {
    const history = new GridHistory();
    const type = (before: string, after: string) =>
      history.record({
        label: 'Edit Title',
        typingKey: '3:title',
        changes: [{ index: 3, field: 'title', before, after }],
      });
    type('Card', 'CardA');
    type('CardA', 'CardAB');
    type('CardAB', 'CardABC');
    history.seal();
    type('CardABC', 'CardABCD');
    expect(history.undo()!.changes).toEqual([{ index: 3, field: 'title', value: 'CardABC' }]);
    expect(history.undo()!.changes).toEqual([{ index: 3, field: 'title', value: 'Card' }]);
    expect(history.canUndo).toBe(false);
  });

  it('ignores steps that change nothing and forgets the redo stack on a new step', () => {
    const history = new GridHistory();
    history.record({
      label: 'noop',
      changes: [{ index: 0, field: 'price', before: '1', after: '1' }],
    });
    expect(history.canUndo).toBe(false);
    history.record({
      label: 'a',
      changes: [{ index: 0, field: 'price', before: '1', after: '2' }],
    });
    history.undo();
    expect(history.canRedo).toBe(true);
    history.record({
      label: 'b',
      changes: [{ index: 0, field: 'price', before: '1', after: '3' }],
    });
    expect(history.canRedo).toBe(false);
  });
});
