import { useCallback, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { CellValue } from '../logic/cells';
import { FIELD_LABELS, type EditField } from '../logic/rows';
import { GridHistory } from './grid-history';
import type { BulkForm, CellWrite } from './grid-types';

/** The grid's undoable commands on the form. */
export function useGridHistory(form: UseFormReturn<BulkForm>, onAnnounce: (m: string) => void) {
  const { getValues, setValue } = form;
  const history = useRef(new GridHistory());
  const [state, setState] = useState({ canUndo: false, canRedo: false });

  const sync = useCallback(() => {
    setState({ canUndo: history.current.canUndo, canRedo: history.current.canRedo });
  }, []);

  /** Writes cells into the form: one path per cell for a few, the whole array for many. */
  const writeCells = useCallback(
    (writes: readonly CellWrite[]) => {
      if (writes.length <= 20) {
        for (const w of writes) {
          setValue(`rows.${w.index}.${w.field}`, w.value as never, { shouldDirty: true });
        }
        return;
      }
      const next = getValues('rows').slice();
      for (const w of writes) {
        const current = next[w.index];
        if (current) next[w.index] = { ...current, [w.field]: w.value };
      }
      setValue('rows', next, { shouldDirty: true });
    },
    [getValues, setValue],
  );

  /** Applies cell writes as one undoable step; returns how many cells changed. */
  const applyStep = useCallback(
    (label: string, writes: CellWrite[], typingKey?: string) => {
      const current = getValues('rows');
      const changes = writes
        .filter((w) => current[w.index] !== undefined)
        .map((w) => ({
          index: w.index,
          field: w.field,
          before: current[w.index]![w.field],
          after: w.value,
        }))
        .filter((c) => c.before !== c.after);
      if (changes.length === 0) return 0;
      writeCells(changes.map((c) => ({ index: c.index, field: c.field, value: c.after })));
      history.current.record({ label, changes, typingKey });
      sync();
      return changes.length;
    },
    [getValues, writeCells, sync],
  );

  /** One cell edited by the seller (typing merges into one step per cell). */
  const onCell = useCallback(
    (index: number, field: EditField, value: CellValue, typing: boolean) => {
      applyStep(
        `Edit ${FIELD_LABELS[field]} in row ${index + 1}`,
        [{ index, field, value }],
        typing ? `${index}:${field}` : undefined,
      );
    },
    [applyStep],
  );

  /** Undo or redo: writes the step's cells back and says what was taken back or done again. */
  const replay = useCallback(
    (direction: 'undo' | 'redo') => {
      const step = history.current[direction]();
      if (!step) return;
      writeCells(step.changes);
      sync();
      onAnnounce(`${direction === 'undo' ? 'Undone' : 'Redone'}: ${step.label}`);
    },
    [writeCells, sync, onAnnounce],
  );
  const undo = useCallback(() => replay('undo'), [replay]);
  const redo = useCallback(() => replay('redo'), [replay]);

  /** Ends the typing step: the next keystroke starts a new one. */
  const seal = useCallback(() => history.current.seal(), []);

  return { ...state, applyStep, onCell, undo, redo, seal };
}

export type GridCommands = ReturnType<typeof useGridHistory>;
