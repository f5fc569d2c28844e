import { useMemo, useRef, type ReactNode } from 'react';
import { useWindowedRows } from './use-windowed-rows';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** CSS width of the column (the table uses a fixed layout so windowed rows never jump). */
  width?: string;
  sortable?: boolean;
  align?: 'left' | 'right';
}

export type SortDirection = 'asc' | 'desc';

export interface TableSelection<T> {
  selected: ReadonlySet<string>;
  onChange(ids: string[], selected: boolean): void;
  rowLabel(row: T): string;
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
}

/**
 * The one data table: a real `<table>` (caption, header cells, aria-sort) whose body is windowed
 * with @tanstack/react-virtual, so only the rows in view (plus a margin) are in the DOM and ten
 * thousand rows scroll smoothly. Spacer rows above and below keep the scrollbar true.
 */
export function DataTable<T>({
  caption,
  rows,
  columns,
  getRowId,
  rowHeight = 40,
  height = 560,
  sort,
  onSortChange,
  selection,
}: DataTableProps<T>) {
  const lastClicked = useRef<number | null>(null);
  const { scrollRef, items, paddingTop, paddingBottom } = useWindowedRows({
    count: rows.length,
    rowHeight,
    height,
    overscan: 12,
    width: 1024,
  });
  const columnCount = columns.length + (selection ? 1 : 0);

  const selected = selection?.selected;
  const allIds = useMemo(() => (selected ? rows.map(getRowId) : []), [rows, getRowId, selected]);
  const selectedShown = useMemo(
    () => (selected ? allIds.filter((id) => selected.has(id)).length : 0),
    [allIds, selected],
  );

  return (
    <div
      className="table-scroll"
      ref={scrollRef}
      style={{ maxHeight: height }}
      tabIndex={0}
      role="region"
      aria-label={`${caption} (scrollable table)`}
    >
      <table className="data-table" aria-rowcount={rows.length + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          {selection && <col style={{ width: '44px' }} />}
          {columns.map((column) => (
            <col key={column.id} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {selection && (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={`Select all ${rows.length} shown`}
                  checked={rows.length > 0 && selectedShown === rows.length}
                  ref={(input) => {
                    if (input)
                      input.indeterminate = selectedShown > 0 && selectedShown < rows.length;
                  }}
                  onChange={(event) => selection.onChange(allIds, event.target.checked)}
                />
              </th>
            )}
            {columns.map((column) => {
              const sorted = sort?.id === column.id ? sort.direction : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  className={column.align === 'right' ? 'num' : undefined}
                  aria-sort={
                    sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
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
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={columnCount} style={{ height: paddingTop }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index]!;
            const id = getRowId(row);
            return (
              <tr key={id} aria-rowindex={item.index + 2} style={{ height: rowHeight }}>
                {selection && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${selection.rowLabel(row)}`}
                      checked={selection.selected.has(id)}
                      onChange={(event) => {
                        // Shift-click selects (or clears) the range from the last row clicked.
                        const last = lastClicked.current;
                        const shift = (event.nativeEvent as MouseEvent).shiftKey && last !== null;
                        const from = shift ? Math.min(last, item.index) : item.index;
                        const to = shift ? Math.max(last, item.index) : item.index;
                        const ids = rows.slice(from, to + 1).map(getRowId);
                        selection.onChange(ids, event.target.checked);
                        lastClicked.current = item.index;
                      }}
                    />
                  </td>
                )}
                {columns.map((column) => (
                  <td key={column.id} className={column.align === 'right' ? 'num' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={columnCount} style={{ height: paddingBottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
