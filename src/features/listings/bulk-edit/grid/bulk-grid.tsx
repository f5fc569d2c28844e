import { durationLabel } from '../../../../components/duration-options';
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { useWatch, type Control, type UseFormReturn } from 'react-hook-form';
import { cellText, parseCell, type CellValue } from '../logic/cells';
import { parsePastedBlock, toTsv } from '../logic/delimited';
import {
  DURATIONS,
  EDIT_FIELDS,
  EDIT_STATUSES,
  FIELD_LABELS,
  isBooleanField,
  rowErrors,
  type BulkRow,
  type EditField,
  type EditValues,
} from '../logic/rows';
import { GridHistory } from './grid-history';
import { MarginCell } from './margin-cell';
import { useWindowedRows } from '../../../../components/use-windowed-rows';

export interface BulkForm {
  rows: EditValues[];
}

export interface CellWrite {
  index: number;
  field: EditField;
  value: CellValue;
}

/** What the page can ask of the grid: bulk changes recorded as one undoable step. */
export interface BulkGridHandle {
  apply(label: string, writes: CellWrite[]): number;
  undo(): void;
  redo(): void;
}

const WIDTHS: Record<EditField, string> = {
  title: '260px',
  price: '110px',
  minimumOffer: '110px',
  acceptsOffers: '70px',
  acceptsTrades: '70px',
  autoRelist: '86px',
  status: '112px',
  durationHours: '96px',
  description: '240px',
};
const ROW_HEIGHT = 46;
const STATUS_WORDS: Record<(typeof EDIT_STATUSES)[number], string> = {
  active: 'Active',
  draft: 'Draft',
  inactive: 'Inactive',
};

type Range = { col: number; from: number; to: number } | null;

interface GridRowProps {
  index: number;
  control: Control<BulkForm>;
  original: EditValues;
  row: BulkRow;
  /** Columns of this row inside the selected range (for highlight), or null. */
  rangeCol: number | null;
  onCell(index: number, field: EditField, value: CellValue, typing: boolean): void;
}

const cellId = (index: number, col: number) => `bulk-cell-${index}-${col}`;

/** One row of the grid: its cells bound to the form, each changed cell and invalid cell marked. */
const GridRow = memo(function GridRow({
  index,
  control,
  original,
  row,
  rangeCol,
  onCell,
}: GridRowProps) {
  const values = useWatch({ control, name: `rows.${index}` }) as EditValues | undefined;
  const errors = useMemo(() => (values ? rowErrors(values) : {}), [values]);
  if (!values) return null;
  return (
    <tr aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }} data-index={index}>
      <th scope="row" className="bulk-row-head">
        <span className="bulk-row-number">{index + 1}</span>
        <span className="bulk-row-card">
          {row.card.player || row.card.set} · {row.card.grader} {row.card.grade}
        </span>
      </th>
      {EDIT_FIELDS.map((field, col) => {
        const value = values[field];
        const changed = value !== original[field];
        const error = errors[field];
        const id = cellId(index, col);
        const label = `${FIELD_LABELS[field]}, row ${index + 1}`;
        const describedBy = [error ? `${id}-error` : null, changed ? `${id}-was` : null]
          .filter(Boolean)
          .join(' ');
        const common = {
          id,
          'data-row': index,
          'data-col': col,
          'aria-label': label,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy || undefined,
        } as const;
        let control;
        if (isBooleanField(field)) {
          control = (
            <input
              {...common}
              type="checkbox"
              // Blank (null): the API does not show the value and the cell leaves it unchanged.
              ref={(element) => {
                if (element) element.indeterminate = value === null;
              }}
              title={value === null ? 'Not shown by the API: left unchanged' : undefined}
              checked={value === true}
              onChange={(event) => onCell(index, field, event.target.checked, false)}
            />
          );
        } else if (field === 'status') {
          control = (
            <select
              {...common}
              value={value as string}
              onChange={(event) => onCell(index, field, event.target.value as CellValue, false)}
            >
              {EDIT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_WORDS[status]}
                </option>
              ))}
            </select>
          );
        } else if (field === 'durationHours') {
          control = (
            <select
              {...common}
              value={value as string}
              onChange={(event) => onCell(index, field, event.target.value as CellValue, false)}
            >
              {value === '' && <option value="">— (not shown)</option>}
              {DURATIONS.map((hours) => (
                <option key={hours} value={hours}>
                  {durationLabel(Number(hours))}
                </option>
              ))}
            </select>
          );
        } else if (field === 'description') {
          control = (
            <textarea
              {...common}
              rows={1}
              value={value as string}
              onChange={(event) => onCell(index, field, event.target.value, true)}
            />
          );
        } else {
          control = (
            <input
              {...common}
              type="text"
              inputMode={field === 'title' ? undefined : 'decimal'}
              autoComplete="off"
              value={value as string}
              onChange={(event) => onCell(index, field, event.target.value, true)}
            />
          );
        }
        const classes = [
          'bulk-cell',
          changed ? 'is-changed' : '',
          error ? 'is-invalid' : '',
          rangeCol === col ? 'in-range' : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <td key={field} className={classes}>
            {control}
            {changed && (
              <span id={`${id}-was`} className="visually-hidden">
                changed from {cellText(field, original[field]) || 'empty'}
              </span>
            )}
            {error && (
              <span id={`${id}-error`} className="cell-error" title={error}>
                {error}
              </span>
            )}
          </td>
        );
      })}
      <MarginCell price={values.price} row={row} />
    </tr>
  );
});

/** Where a control of the grid sits, from its data attributes. */
function cellOf(target: EventTarget | null): { row: number; col: number } | null {
  if (!(target instanceof HTMLElement)) return null;
  const row = target.dataset.row;
  const col = target.dataset.col;
  if (row === undefined || col === undefined) return null;
  return { row: Number(row), col: Number(col) };
}

function isTextControl(el: HTMLElement): el is HTMLInputElement | HTMLTextAreaElement {
  return (
    (el instanceof HTMLInputElement && el.type === 'text') || el instanceof HTMLTextAreaElement
  );
}

/**
 * The spreadsheet-like grid: a real table of labelled controls bound to one react-hook-form
 * form, windowed so 1,000 rows stay responsive. Arrow keys, Tab and Enter move between cells
 * (Shift goes back; Shift+Arrow extends a range down a column); typing edits (a cell reached
 * from the keyboard has its text selected, so typing replaces it); a block pasted from a
 * spreadsheet fills cells from the focused one; Ctrl+D fills down; Ctrl+Z and Ctrl+Y (or
 * Ctrl+Shift+Z) undo and redo; Escape restores the cell as it was when focused.
 */
export function BulkGrid({
  form,
  rows,
  originals,
  onAnnounce,
  handleRef,
  height = 520,
}: {
  form: UseFormReturn<BulkForm>;
  rows: readonly BulkRow[];
  originals: readonly EditValues[];
  onAnnounce(message: string): void;
  handleRef?: Ref<BulkGridHandle>;
  height?: number;
}) {
  const { control, getValues, setValue } = form;
  const history = useRef(new GridHistory());
  const [historyState, setHistoryState] = useState({ undo: false, redo: false });
  const [range, setRange] = useState<Range>(null);
  const pendingFocus = useRef<{ row: number; col: number; select: boolean } | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const focusValue = useRef<{ row: number; col: number; value: CellValue } | null>(null);
  const anchor = useRef<{ row: number; col: number }>({ row: 0, col: 0 });

  const { scrollRef, virtualizer, items, paddingTop, paddingBottom } = useWindowedRows({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    height,
    overscan: 8,
    width: 1200,
  });

  const syncHistory = useCallback(() => {
    setHistoryState({ undo: history.current.canUndo, redo: history.current.canRedo });
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
      syncHistory();
      return changes.length;
    },
    [getValues, writeCells, syncHistory],
  );

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

  const undo = useCallback(() => {
    const step = history.current.undo();
    if (!step) return;
    writeCells(step.changes);
    syncHistory();
    onAnnounce(`Undone: ${step.label}`);
  }, [writeCells, syncHistory, onAnnounce]);

  const redo = useCallback(() => {
    const step = history.current.redo();
    if (!step) return;
    writeCells(step.changes);
    syncHistory();
    onAnnounce(`Redone: ${step.label}`);
  }, [writeCells, syncHistory, onAnnounce]);

  useImperativeHandle(
    handleRef,
    () => ({ apply: (label, writes) => applyStep(label, writes), undo, redo }),
    [applyStep, undo, redo],
  );

  const focusCell = useCallback(
    (row: number, col: number, select = true) => {
      const r = Math.max(0, Math.min(rows.length - 1, row));
      const c = Math.max(0, Math.min(EDIT_FIELDS.length - 1, col));
      pendingFocus.current = { row: r, col: c, select };
      virtualizer.scrollToIndex(r, { align: 'auto' });
      setFocusTick((t) => t + 1);
    },
    [rows.length, virtualizer],
  );

  // Focus the pending cell once its row is rendered (it may need a scroll first).
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    let tries = 0;
    let frame = 0;
    const attempt = () => {
      const el = document.getElementById(cellId(pending.row, pending.col));
      if (el) {
        pendingFocus.current = null;
        el.focus();
        if (pending.select && isTextControl(el)) el.select();
        return;
      }
      if (tries++ < 60) frame = requestAnimationFrame(attempt);
      else if (pendingFocus.current === pending) pendingFocus.current = null;
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [focusTick]);

  const fillDown = useCallback(() => {
    const at = anchor.current;
    const field = EDIT_FIELDS[at.col]!;
    const values = getValues('rows');
    const from = range && range.col === at.col ? Math.min(range.from, range.to) : at.row;
    const to = range && range.col === at.col ? Math.max(range.from, range.to) : values.length - 1;
    const source = values[from]?.[field];
    if (source === undefined) return;
    const writes: CellWrite[] = [];
    for (let i = from + 1; i <= to; i++) writes.push({ index: i, field, value: source });
    const count = applyStep(`Fill down ${FIELD_LABELS[field]}`, writes);
    onAnnounce(
      `Filled ${FIELD_LABELS[field]} down from row ${from + 1} to row ${to + 1}: ${count} cell(s) changed`,
    );
  }, [applyStep, getValues, onAnnounce, range]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = cellOf(event.target);
    if (!target) return;
    // Keys pressed faster than the grid scrolls: move on from where the last key was going.
    const at = pendingFocus.current ?? target;
    const el = event.target as HTMLElement;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key;
    if (mod && (key === 'z' || key === 'Z')) {
      event.preventDefault();
      history.current.seal();
      if (event.shiftKey) redo();
      else undo();
      return;
    }
    if (mod && (key === 'y' || key === 'Y')) {
      event.preventDefault();
      redo();
      return;
    }
    if (mod && (key === 'd' || key === 'D')) {
      event.preventDefault();
      fillDown();
      return;
    }
    if (mod && (key === 'c' || key === 'C') && range && range.col === at.col) {
      // Copy a range down a column as the block a spreadsheet would paste.
      const field = EDIT_FIELDS[range.col]!;
      const values = getValues('rows');
      const lo = Math.min(range.from, range.to);
      const hi = Math.max(range.from, range.to);
      const block = values.slice(lo, hi + 1).map((v) => [cellText(field, v[field])]);
      void navigator.clipboard?.writeText(toTsv(block));
      event.preventDefault();
      return;
    }
    if (key === 'Escape') {
      const before = focusValue.current;
      if (before && before.row === at.row && before.col === at.col) {
        event.preventDefault();
        onCell(at.row, EDIT_FIELDS[at.col]!, before.value, false);
        history.current.seal();
      }
      setRange(null);
      return;
    }
    const text = isTextControl(el);
    const caretAtStart = text && el.selectionStart === 0 && el.selectionEnd === 0;
    const caretAtEnd =
      text && el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
    const allSelected =
      text && el.selectionStart === 0 && el.selectionEnd === el.value.length && el.value !== '';
    let move: [number, number] | null = null;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      if (event.altKey) return; // let a select open its list
      const step = key === 'ArrowDown' ? 1 : -1;
      if (event.shiftKey) {
        event.preventDefault();
        const start = range && range.col === at.col ? range.from : at.row;
        const to = Math.max(0, Math.min(rows.length - 1, at.row + step));
        setRange({ col: at.col, from: start, to });
        focusCell(to, at.col, false);
        return;
      }
      move = [at.row + step, at.col];
    } else if (key === 'ArrowLeft' && (!text || caretAtStart || allSelected)) {
      move = [at.row, at.col - 1];
    } else if (key === 'ArrowRight' && (!text || caretAtEnd || allSelected)) {
      move = [at.row, at.col + 1];
    } else if (key === 'Enter' && !event.altKey && !mod) {
      move = [at.row + (event.shiftKey ? -1 : 1), at.col];
    } else if (key === 'Enter' && event.altKey && el instanceof HTMLTextAreaElement) {
      // Alt+Enter: a line break inside a description, as in a spreadsheet.
      event.preventDefault();
      const start = el.selectionStart;
      const value = `${el.value.slice(0, start)}\n${el.value.slice(el.selectionEnd)}`;
      onCell(at.row, 'description', value, true);
      return;
    } else if (key === 'Tab') {
      const last = EDIT_FIELDS.length - 1;
      if (!event.shiftKey && at.col === last && at.row === rows.length - 1) return;
      if (event.shiftKey && at.col === 0 && at.row === 0) return;
      move = event.shiftKey
        ? at.col === 0
          ? [at.row - 1, last]
          : [at.row, at.col - 1]
        : at.col === last
          ? [at.row + 1, 0]
          : [at.row, at.col + 1];
    }
    if (!move) return;
    event.preventDefault();
    setRange(null);
    history.current.seal();
    focusCell(move[0], move[1]);
  };

  const onPaste = (event: ClipboardEvent<HTMLTableElement>) => {
    const at = cellOf(event.target);
    if (!at) return;
    const text = event.clipboardData.getData('text/plain');
    const block = parsePastedBlock(text);
    if (block.length === 0) return;
    const single = block.length === 1 && block[0]!.length === 1;
    const inRange = range && range.col === at.col && range.from !== range.to;
    if (single && !inRange && isTextControl(event.target as HTMLElement)) return; // native paste
    event.preventDefault();
    const writes: CellWrite[] = [];
    const problems: string[] = [];
    const values = getValues('rows');
    const targets: { row: number; col: number; text: string }[] = [];
    if (single && inRange) {
      const lo = Math.min(range.from, range.to);
      const hi = Math.max(range.from, range.to);
      for (let r = lo; r <= hi; r++) targets.push({ row: r, col: at.col, text: block[0]![0]! });
    } else {
      block.forEach((cells, r) =>
        cells.forEach((cell, c) => targets.push({ row: at.row + r, col: at.col + c, text: cell })),
      );
    }
    let outside = 0;
    for (const target of targets) {
      const field = EDIT_FIELDS[target.col];
      if (!field || target.row >= values.length) {
        outside++;
        continue;
      }
      const parsed = parseCell(field, target.text);
      if (parsed.ok) writes.push({ index: target.row, field, value: parsed.value });
      else problems.push(`row ${target.row + 1}, ${FIELD_LABELS[field]}: ${parsed.message}`);
    }
    const count = applyStep(`Paste ${writes.length} cell(s)`, writes);
    const parts = [`Pasted ${count} changed cell(s) from row ${at.row + 1}`];
    if (problems.length > 0)
      parts.push(`${problems.length} not understood (${problems.slice(0, 5).join('; ')})`);
    if (outside > 0) parts.push(`${outside} outside the grid left out`);
    onAnnounce(parts.join('; '));
  };

  const onFocus = (event: FocusEvent<HTMLTableElement>) => {
    const at = cellOf(event.target);
    if (!at) return;
    anchor.current = at;
    const field = EDIT_FIELDS[at.col]!;
    focusValue.current = { ...at, value: getValues(`rows.${at.row}.${field}`) };
  };

  useEffect(() => {
    const reset = () => history.current.seal();
    window.addEventListener('blur', reset);
    return () => window.removeEventListener('blur', reset);
  }, []);

  const rangeLo = range ? Math.min(range.from, range.to) : -1;
  const rangeHi = range ? Math.max(range.from, range.to) : -1;

  return (
    <div className="bulk-grid">
      <div className="bulk-grid-tools" role="toolbar" aria-label="Grid">
        <button
          type="button"
          onClick={undo}
          disabled={!historyState.undo}
          aria-keyshortcuts="Control+Z"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={redo}
          disabled={!historyState.redo}
          aria-keyshortcuts="Control+Y"
        >
          Redo
        </button>
        <button type="button" onClick={fillDown} aria-keyshortcuts="Control+D">
          Fill down
        </button>
        <span className="muted">
          Arrows, Tab and Enter move · type to edit · paste a block from a spreadsheet · Shift+↓
          selects down a column · Ctrl+D fills down
        </span>
      </div>
      <div className="table-scroll bulk-grid-scroll" ref={scrollRef} style={{ maxHeight: height }}>
        <table
          className="data-table bulk-table"
          aria-label={`Bulk edit grid, ${rows.length} listings`}
          aria-rowcount={rows.length + 1}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onFocus={onFocus}
          onBlur={() => history.current.seal()}
        >
          <colgroup>
            <col style={{ width: '150px' }} />
            {EDIT_FIELDS.map((field) => (
              <col key={field} style={{ width: WIDTHS[field] }} />
            ))}
            <col style={{ width: '90px' }} />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">Card</th>
              {EDIT_FIELDS.map((field) => (
                <th key={field} scope="col">
                  {FIELD_LABELS[field]}
                </th>
              ))}
              <th scope="col">Margin</th>
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={EDIT_FIELDS.length + 2} style={{ height: paddingTop }} />
              </tr>
            )}
            {items.map((item) => (
              <GridRow
                key={rows[item.index]!.id}
                index={item.index}
                control={control}
                original={originals[item.index]!}
                row={rows[item.index]!}
                rangeCol={item.index >= rangeLo && item.index <= rangeHi ? range!.col : null}
                onCell={onCell}
              />
            ))}
            {paddingBottom > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={EDIT_FIELDS.length + 2} style={{ height: paddingBottom }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
