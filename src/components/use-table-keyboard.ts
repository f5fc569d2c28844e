import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';

/** Row index of the header row in the roving model (data rows are 0…count-1). */
export const HEADER_ROW = -1;

const CONTROLS = 'a[href], button, input, select, textarea';
const PAGE = 10;

/** A row's controls, not a dialog's opened from it (those keep their own tab order). */
function controlsOf(row: HTMLElement): HTMLElement[] {
  return Array.from(row.querySelectorAll<HTMLElement>(CONTROLS)).filter(
    (element) => !(element as HTMLButtonElement).disabled && !element.closest('[role="dialog"]'),
  );
}

/** The element of a row that holds focus: its chosen control, else its first link, else the row. */
function targetOf(row: HTMLElement, col: number | null): HTMLElement {
  const controls = controlsOf(row);
  if (controls.length === 0) return row;
  if (col !== null) return controls[Math.min(col, controls.length - 1)]!;
  return row.querySelector<HTMLElement>('td a[href]') ?? controls[0]!;
}

/** One tab stop (roving tabindex); rows by `aria-rowindex`, so one off-window scrolls in. */
export function useTableKeyboard(options: {
  /** Off: the table keeps the page's own tab order (a short list whose rows hold forms). */
  enabled?: boolean;
  tableRef: RefObject<HTMLTableElement | null>;
  count: number;
  scrollToRow(index: number): void;
  /** Space on a data row: toggle its selection (shift: the range from the last toggled row). */
  onToggle?(index: number, shift: boolean): void;
}) {
  const { enabled = true, tableRef, count, scrollToRow, onToggle } = options;
  const [active, setActive] = useState<{ row: number; col: number | null }>({
    row: 0,
    col: null,
  });
  const pendingFocus = useRef(false);
  const activeRow = Math.max(HEADER_ROW, Math.min(active.row, count - 1));

  const rowElement = useCallback(
    (index: number) =>
      tableRef.current?.querySelector<HTMLTableRowElement>(`tr[aria-rowindex="${index + 2}"]`) ??
      null,
    [tableRef],
  );

  // After every render: exactly one element of the table is in the tab order.
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table || !enabled) return;
    const rows = Array.from(table.querySelectorAll<HTMLTableRowElement>('tr[aria-rowindex]'));
    for (const row of rows) {
      row.removeAttribute('tabindex');
      for (const control of controlsOf(row)) control.tabIndex = -1;
    }
    let row = rowElement(activeRow);
    const shown = row !== null;
    if (!row && !pendingFocus.current) {
      row = rows.find((r) => Number(r.getAttribute('aria-rowindex')) > 1) ?? rowElement(HEADER_ROW);
    }
    if (!row) return;
    const target = targetOf(row, shown ? active.col : null);
    target.tabIndex = 0;
    if (shown && pendingFocus.current) {
      pendingFocus.current = false;
      target.focus({ preventScroll: false });
    }
  });

  const moveTo = (row: number, col: number | null) => {
    const next = Math.max(HEADER_ROW, Math.min(row, count - 1));
    pendingFocus.current = true;
    setActive({ row: next, col });
    if (next >= 0) scrollToRow(next);
    // Already rendered and unchanged: the layout effect will not run again, so focus now.
    const element = rowElement(next);
    if (element && next === activeRow && col === active.col) {
      pendingFocus.current = false;
      targetOf(element, col).focus();
    }
  };

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    if (!enabled) return;
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[aria-rowindex]');
    if (!row) return;
    const index = Number(row.getAttribute('aria-rowindex')) - 2;
    const position = controlsOf(row).indexOf(event.target as HTMLElement);
    const col = position < 0 ? null : position;
    if (index !== active.row || col !== active.col) setActive({ row: index, col });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!enabled || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    // Inside a text field or a list box the keys are the field's own.
    if (target.matches('select, textarea, input:not([type="checkbox"]):not([type="radio"])')) {
      return;
    }
    const row = target.closest<HTMLElement>('tr[aria-rowindex]');
    if (!row) return;
    const index = Number(row.getAttribute('aria-rowindex')) - 2;
    const controls = controlsOf(row);
    const position = controls.indexOf(target);
    const crossing = (to: number) => (to === HEADER_ROW) !== (index === HEADER_ROW);
    const col = (to: number) => (crossing(to) || position < 0 ? null : position);
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        moveTo(index + 1, col(index + 1));
        break;
      case 'ArrowUp':
      case 'k':
        moveTo(index - 1, col(index - 1));
        break;
      case 'PageDown':
        moveTo(index + PAGE, col(index + PAGE));
        break;
      case 'PageUp':
        moveTo(Math.max(0, index - PAGE), col(Math.max(0, index - PAGE)));
        break;
      case 'Home':
        moveTo(0, col(0));
        break;
      case 'End':
        moveTo(count - 1, col(count - 1));
        break;
      case 'ArrowRight':
        if (controls.length === 0) return;
        moveTo(index, Math.min(controls.length - 1, position + 1));
        break;
      case 'ArrowLeft':
        if (controls.length === 0) return;
        moveTo(index, Math.max(0, position - 1));
        break;
      case 'Enter': {
        if (index === HEADER_ROW || target.matches('a[href], button')) return;
        const link = row.querySelector<HTMLElement>('td a[href]');
        if (!link) return;
        link.click();
        break;
      }
      case ' ': {
        if (index === HEADER_ROW || target.matches('button, input')) return;
        if (!onToggle) return;
        onToggle(index, event.shiftKey);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  return { onKeyDown, onFocus };
}
