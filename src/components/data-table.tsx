import { memo, useCallback, useDeferredValue, useMemo, useRef, type ReactNode } from 'react';
import { NARROW_QUERY, useMediaQuery } from './use-media-query';
import { useTableKeyboard } from './use-table-keyboard';
import { useWindowedRows } from './use-windowed-rows';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** CSS width of the column (the table uses a fixed layout so windowed rows never jump). */
  width?: string;
  sortable?: boolean;
  align?: 'left' | 'right';
  /** The row's header (its name): a `<th scope="row">`. */
  rowHeader?: boolean;
  /** The header said only to a screen reader (a column of controls). */
  headerHidden?: boolean;
  /** Off for a cell of its own (controls, a note): on a stacked phone row it reads unlabelled. */
  labelled?: boolean;
  /** The cells' own class beside the house's (`figure`, `below-cost`). */
  className?: string;
}

export type SortDirection = 'asc' | 'desc';

export interface TableSelection<T> {
  selected: ReadonlySet<string>;
  onChange(ids: string[], selected: boolean): void;
  rowLabel(row: T): string;
}

/** How rows read as cards on a narrow screen: the title column and the columns shown under it. */
export interface CardLayout {
  title: string;
  fields: readonly string[];
  /** The card's height in px (default 84: a title line and a line or two of figures). */
  height?: number;
}

export interface DataTableProps<T> {
  caption: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  getRowId(row: T): string;
  rowHeight?: number;
  /** Height of the scrolling body in px. */
  height?: number;
  sort?: { id: string; direction: SortDirection } | undefined;
  onSortChange?(id: string): void;
  selection?: TableSelection<T>;
  /** Cards below 720 px; default: first column the title, the rest labelled figures. */
  cards?: CardLayout;
  /** Off for a short list of forms: every row drawn, each control a tab stop, stacked. */
  windowed?: boolean;
  /** The row the page shows beside the table (`aria-current`). */
  currentRowId?: string;
  /** A row's own class (a conflict, a sale undone). */
  rowClassName?(row: T): string | undefined;
  /** The caption shown above the table, not only said to a screen reader. */
  showCaption?: boolean;
  /** The table's own class beside the house's. */
  className?: string;
  /** A full-width row under each row (a sum spelled out); only on a table drawn whole. */
  rowNote?(row: T): ReactNode;
  /** A table drawn whole that is wider than a phone: a focusable region scrolling sideways. */
  scrollsSideways?: boolean;
}

/** `current` with `ids` selected (`on`) or cleared: a selection's `onChange` for a Set state. */
export function withIdsSelected(
  current: ReadonlySet<string>,
  ids: readonly string[],
  on: boolean,
): Set<string> {
  const next = new Set(current);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** A card's height: a title line and a line or two of figures. */
const CARD_ROW_HEIGHT = 84;

/** The card a table without its own layout gets: its first column on top, the rest below. */
function defaultCards(columns: readonly { id: string }[]): CardLayout {
  const [first, ...rest] = columns;
  const fields = rest.map((column) => column.id);
  // A title line, then the labelled figures about two to a line.
  return { title: first?.id ?? '', fields, height: 40 + 22 * Math.ceil(fields.length / 2) };
}

/** On a card, the figures come in the order `cards.fields` gives (no effect on a table row). */
function cardOrder(cards: CardLayout, id: string) {
  const index = cards.fields.indexOf(id);
  return index >= 0 ? { order: index + 1 } : undefined;
}

function cardRoleOf(cards: CardLayout, windowed: boolean, id: string) {
  if (!windowed) return cards.title === id ? 'stack-title' : '';
  if (cards.title === id) return 'card-title';
  return cards.fields.includes(id) ? 'card-field' : 'card-hidden';
}

/** The rows above or below a window, as one empty row of their height. */
export const WindowSpacer = ({ height, columns }: { height: number; columns: number }) =>
  height > 0 && (
    <tr aria-hidden="true" className="spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );

interface BodyRowProps<T> {
  row: T;
  index: number;
  columns: readonly Column<T>[];
  cards: CardLayout;
  windowed: boolean;
  className: string | undefined;
  current: boolean;
  height: number | undefined;
  /** The checkbox's name, when rows are selectable. */
  selectLabel: string | undefined;
  selected: boolean;
  selectClass: string;
  toggle(index: number, on: boolean, shift: boolean): void;
  note: ((row: T) => ReactNode) | undefined;
  columnCount: number;
}

/** One row, its own component: new rows are drawn in a render that yields between rows. */
const BodyRow = memo(function BodyRow<T>({
  row,
  index,
  columns,
  cards,
  windowed,
  className,
  current,
  height,
  selectLabel,
  selected,
  selectClass,
  toggle,
  note,
  columnCount,
}: BodyRowProps<T>) {
  return (
    <>
      <tr
        aria-rowindex={index + 2}
        className={className}
        aria-current={current ? 'true' : undefined}
        style={height === undefined ? undefined : { height }}
      >
        {selectLabel !== undefined && (
          <td className={selectClass}>
            {/* The label is the hit area (44 px) around a checkbox drawn at its own size. */}
            <label className="hit-area">
              <input
                type="checkbox"
                aria-label={selectLabel}
                checked={selected}
                onChange={(event) =>
                  // Shift-click selects (or clears) the range from the last row clicked.
                  toggle(index, event.target.checked, (event.nativeEvent as MouseEvent).shiftKey)
                }
              />
            </label>
          </td>
        )}
        {columns.map((column) => {
          const Cell = column.rowHeader ? 'th' : 'td';
          return (
            <Cell
              key={column.id}
              scope={column.rowHeader ? 'row' : undefined}
              className={`${column.align === 'right' ? 'num ' : ''}${cardRoleOf(cards, windowed, column.id)}${
                column.className ? ` ${column.className}` : ''
              }`}
              data-label={
                column.labelled === false || (!windowed && cards.title === column.id)
                  ? undefined
                  : column.header
              }
              style={windowed ? cardOrder(cards, column.id) : undefined}
            >
              {column.cell(row)}
            </Cell>
          );
        })}
      </tr>
      {note && (
        <tr className="note-row">
          <td colSpan={columnCount}>{note(row)}</td>
        </tr>
      )}
    </>
  );
}) as <T>(props: BodyRowProps<T>) => ReactNode;

/** The one data table: windowed, one tab stop, cards below 720 px; memoised for stable props. */
export const DataTable = memo(DataTableView) as typeof DataTableView;

function DataTableView<T>({
  caption,
  rows: latestRows,
  columns,
  getRowId,
  rowHeight = 40,
  height = 560,
  sort,
  onSortChange,
  selection,
  cards: ownCards,
  windowed = true,
  rowClassName,
  className,
  currentRowId,
  showCaption = false,
  rowNote,
  scrollsSideways = false,
}: DataTableProps<T>) {
  // New rows from data are drawn in an interruptible background render, not one long task.
  const rows = useDeferredValue(latestRows);
  const cards = useMemo(() => ownCards ?? defaultCards(columns), [ownCards, columns]);
  const lastClicked = useRef<number | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const narrow = useMediaQuery(NARROW_QUERY);
  const shownRowHeight = narrow ? Math.max(rowHeight, cards.height ?? CARD_ROW_HEIGHT) : rowHeight;
  const { scrollRef, items, paddingTop, paddingBottom, scrollToRow } = useWindowedRows({
    count: rows.length,
    rowHeight: shownRowHeight,
    height,
    // Four rows each side: more only adds rows to the first render.
    overscan: 4,
  });
  const columnCount = columns.length + (selection ? 1 : 0);
  // A short list is drawn whole: every row, none of the window's spacers.
  const shownItems = useMemo(
    () => (windowed ? items : rows.map((_, index) => ({ index }))),
    [windowed, items, rows],
  );

  const selected = selection?.selected;
  // Counted without listing every id (100,000 rows); none when nothing is selected.
  const selectedShown = useMemo(() => {
    if (!selected || selected.size === 0) return 0;
    let count = 0;
    for (const row of rows) if (selected.has(getRowId(row))) count++;
    return count;
  }, [rows, getRowId, selected]);

  /** Selects or clears row `index`; with shift, the range from the row toggled last. */
  const toggle = useCallback(
    (index: number, on: boolean, shift: boolean) => {
      if (!selection) return;
      const last = lastClicked.current;
      const range = shift && last !== null;
      const from = range ? Math.min(last, index) : index;
      const to = range ? Math.max(last, index) : index;
      selection.onChange(rows.slice(from, to + 1).map(getRowId), on);
      lastClicked.current = index;
    },
    [selection, rows, getRowId],
  );

  const keyboard = useTableKeyboard({
    enabled: windowed,
    tableRef,
    count: rows.length,
    scrollToRow,
    onToggle: selection
      ? (index, shift) => toggle(index, !selection.selected.has(getRowId(rows[index]!)), shift)
      : undefined,
  });

  const cardRole = (id: string) => cardRoleOf(cards, windowed, id);
  const selectClass = windowed ? 'card-select' : 'stack-select';
  const tableClass = `data-table ${windowed ? 'has-cards' : 'simple-table stack-table'}${
    className ? ` ${className}` : ''
  }`;

  const bodyRows = shownItems.map(({ index }) => {
    const row = rows[index]!;
    const id = getRowId(row);
    return (
      <BodyRow
        key={id}
        {...{ row, index, columns, cards, windowed, toggle, columnCount, selectClass }}
        className={rowClassName?.(row)}
        current={currentRowId === id}
        height={windowed ? shownRowHeight : undefined}
        selectLabel={selection && `Select ${selection.rowLabel(row)}`}
        selected={selection?.selected.has(id) === true}
        note={rowNote && !windowed ? rowNote : undefined}
      />
    );
  });

  return (
    <div
      className="table-scroll"
      ref={scrollRef}
      {...(windowed && { style: { maxHeight: height } })}
      {...((windowed || scrollsSideways) && {
        role: 'region',
        'aria-label': `${caption} (scrollable table)`,
        tabIndex: windowed ? undefined : 0,
      })}
    >
      <table
        className={tableClass}
        aria-rowcount={rows.length + 1}
        // Older rows while the new ones are drawn: said, for a reader and for a test's wait.
        aria-busy={rows !== latestRows}
        ref={tableRef}
        onKeyDown={keyboard.onKeyDown}
        onFocus={keyboard.onFocus}
      >
        <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
        {windowed && (
          <colgroup>
            {selection && <col style={{ width: '44px' }} />}
            {columns.map((column) => (
              <col key={column.id} style={column.width ? { width: column.width } : undefined} />
            ))}
          </colgroup>
        )}
        <thead>
          <tr aria-rowindex={1}>
            {selection && (
              <th scope="col" className={selectClass}>
                <label className="hit-area">
                  <input
                    type="checkbox"
                    aria-label={`Select all ${rows.length} shown`}
                    checked={rows.length > 0 && selectedShown === rows.length}
                    ref={(input) => {
                      if (input)
                        input.indeterminate = selectedShown > 0 && selectedShown < rows.length;
                    }}
                    onChange={(event) =>
                      selection.onChange(rows.map(getRowId), event.target.checked)
                    }
                  />
                  {/* A stacked phone table has no header row to explain the box. */}
                  {!windowed && <span aria-hidden="true">Select all</span>}
                </label>
              </th>
            )}
            {columns.map((column) => {
              const sorted = sort?.id === column.id ? sort.direction : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  className={`${column.align === 'right' ? 'num ' : ''}${cardRole(column.id)}`}
                  aria-sort={
                    sorted === 'asc'
                      ? 'ascending'
                      : sorted === 'desc'
                        ? 'descending'
                        : column.sortable && onSortChange
                          ? 'none'
                          : undefined
                  }
                >
                  {column.sortable && onSortChange ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onSortChange(column.id)}
                    >
                      {column.header}
                      <span aria-hidden="true">
                        {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                      </span>
                    </button>
                  ) : column.headerHidden ? (
                    <span className="visually-hidden">{column.header}</span>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {windowed && <WindowSpacer height={paddingTop} columns={columnCount} />}
          {bodyRows}
          {windowed && <WindowSpacer height={paddingBottom} columns={columnCount} />}
        </tbody>
      </table>
    </div>
  );
}
