import { countOf } from '../../../../lib/format';
import { useEffect, useImperativeHandle, useState, type Ref } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useMarginBasis } from '../../../../api/sales/use-margin-basis';
import { useWindowedRows } from '../../../../components/use-windowed-rows';
import { WindowSpacer } from '../../../../components/data-table';
import { EDIT_FIELDS, FIELD_LABELS, type EditValues } from '../logic/rows';
import type { CatalogueRow } from '../../catalogue/catalogue-row';
import { GridRow } from './grid-row';
import {
  NARROW_ROW_HEIGHT,
  ROW_HEIGHT,
  type BulkForm,
  type BulkGridHandle,
  type Range,
} from './grid-types';
import { NARROW_QUERY, useMediaQuery } from '../../../../components/use-media-query';
import { useGridClipboard } from './use-grid-clipboard';
import { useGridHistory } from './use-grid-history';
import { useGridFocus, useGridKeyboard } from './use-grid-keyboard';

/** The card, each editable field, the margin. */
const COLUMNS = EDIT_FIELDS.length + 2;

/** The spreadsheet grid: a windowed table of labelled controls on one react-hook-form form. */
export function BulkGrid({
  form,
  rows,
  originals,
  onAnnounce,
  handleRef,
  height = 520,
}: {
  form: UseFormReturn<BulkForm>;
  rows: readonly CatalogueRow[];
  originals: readonly EditValues[];
  onAnnounce(message: string): void;
  handleRef?: Ref<BulkGridHandle>;
  height?: number;
}) {
  const { control, getValues } = form;
  const [range, setRange] = useState<Range>(null);
  const basis = useMarginBasis();
  // On a phone each row is a card of labelled fields (bulk-edit.css).
  const rowHeight = useMediaQuery(NARROW_QUERY) ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  const { scrollRef, items, paddingTop, paddingBottom, scrollToRow } = useWindowedRows({
    count: rows.length,
    rowHeight,
    height,
    overscan: 8,
  });
  const commands = useGridHistory(form, onAnnounce);
  const focus = useGridFocus(rows.length, scrollToRow, getValues);
  const clipboard = useGridClipboard({ range, getValues, commands, onAnnounce });
  const keyboard = useGridKeyboard({
    rowCount: rows.length,
    range,
    setRange,
    getValues,
    commands,
    focus,
    copyRange: clipboard.copyRange,
    onAnnounce,
  });
  const { applyStep, undo, redo, seal, onCell } = commands;

  useImperativeHandle(
    handleRef,
    () => ({ apply: (label, writes) => applyStep(label, writes), undo, redo }),
    [applyStep, undo, redo],
  );

  useEffect(() => {
    window.addEventListener('blur', seal);
    return () => window.removeEventListener('blur', seal);
  }, [seal]);

  const rangeLo = range ? Math.min(range.from, range.to) : -1;
  const rangeHi = range ? Math.max(range.from, range.to) : -1;

  return (
    <div className="bulk-grid">
      <div className="bulk-grid-tools" role="toolbar" aria-label="Grid">
        {(
          [
            ['Undo', undo, 'Control+Z', !commands.canUndo],
            ['Redo', redo, 'Control+Y', !commands.canRedo],
            ['Fill down', keyboard.fillDown, 'Control+D', false],
          ] as const
        ).map(([name, onClick, keys, disabled]) => (
          <button
            key={name}
            type="button"
            onClick={onClick}
            disabled={disabled}
            aria-keyshortcuts={keys}
          >
            {name}
          </button>
        ))}
        <span className="muted desk-only">
          Arrows, Tab and Enter move · type to edit · paste a block from a spreadsheet · Shift+↓
          selects down a column · Ctrl+D fills down
        </span>
      </div>
      {/* Its height is the stylesheet's (the screen below the tools); `height` is the first guess. */}
      <div className="table-scroll bulk-grid-scroll" ref={scrollRef}>
        <table
          className="data-table bulk-table"
          aria-label={`Bulk edit grid, ${countOf(rows.length, 'listing')}`}
          aria-rowcount={rows.length + 1}
          onKeyDown={keyboard.onKeyDown}
          onPaste={clipboard.onPaste}
          onFocus={focus.onFocus}
          onBlur={seal}
        >
          <colgroup>
            {/* Widths in bulk-edit.css: narrower on a phone, so the price shows beside the card. */}
            <col className="bulk-col-card" />
            {EDIT_FIELDS.map((field) => (
              <col key={field} className={`bulk-col-${field}`} />
            ))}
            <col className="bulk-col-margin" />
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
            <WindowSpacer height={paddingTop} columns={COLUMNS} />
            {items.map((item) => (
              <GridRow
                key={rows[item.index]!.id}
                index={item.index}
                height={rowHeight}
                control={control}
                original={originals[item.index]!}
                row={rows[item.index]!}
                basis={basis}
                rangeCol={item.index >= rangeLo && item.index <= rangeHi ? range!.col : null}
                onCell={onCell}
              />
            ))}
            <WindowSpacer height={paddingBottom} columns={COLUMNS} />
          </tbody>
        </table>
      </div>
    </div>
  );
}
