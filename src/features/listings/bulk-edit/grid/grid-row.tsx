import { memo, useMemo } from 'react';
import type { MarginBasis } from '../../../../api/sales/use-margin-basis';
import { MarginText } from '../../catalogue/margin-column';
import type { CatalogueRow } from '../../catalogue/catalogue-row';
import { useWatch, type Control } from 'react-hook-form';
import { durationLabel } from '../../../../components/duration-options';
import { cellText, type CellValue } from '../logic/cells';
import {
  DURATIONS,
  EDIT_FIELDS,
  EDIT_STATUSES,
  FIELD_LABELS,
  isBooleanField,
  rowErrors,
  type EditField,
  type EditValues,
} from '../logic/rows';
import { cellId, type BulkForm } from './grid-types';
import { SlabFactsLine } from '../../../../components/slab-identity';
import { Options } from '../../../../components/options';
import { LISTING_STATUS_WORDS } from '../../../../lib/code-words';

/** The columns drawn as a list: each value and its words. */
const OPTIONS: Partial<Record<EditField, [string, string][]>> = {
  status: EDIT_STATUSES.map((status) => [status, LISTING_STATUS_WORDS[status] ?? status]),
  durationHours: DURATIONS.map((hours) => [hours, durationLabel(Number(hours))]),
};

interface GridRowProps {
  index: number;
  /** The row's height in px (the window's arithmetic). */
  height: number;
  control: Control<BulkForm>;
  original: EditValues;
  row: CatalogueRow;
  /** The learned fee rate and the cards' costs (one read for the whole grid). */
  basis: MarginBasis;
  /** Columns of this row inside the selected range (for highlight), or null. */
  rangeCol: number | null;
  onCell(index: number, field: EditField, value: CellValue, typing: boolean): void;
}

/** One row of the grid: its cells bound to the form, each changed cell and invalid cell marked. */
export const GridRow = memo(function GridRow({
  index,
  height,
  control,
  original,
  row,
  basis,
  rangeCol,
  onCell,
}: GridRowProps) {
  const values = useWatch({ control, name: `rows.${index}` }) as EditValues | undefined;
  const errors = useMemo(() => (values ? rowErrors(values) : {}), [values]);
  if (!values) return null;
  return (
    <tr aria-rowindex={index + 2} style={{ height }} data-index={index}>
      <th scope="row" className="bulk-row-head">
        <span className="bulk-row-number">{index + 1}</span>
        {/* What tells this slab from the next: grade and cert whole, then year and set. */}
        <span className="bulk-row-card">
          {row.imageSrc && (
            <img className="slab-thumb" src={row.imageSrc} alt="" width={20} height={28} />
          )}
          <SlabFactsLine facts={row} />
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
        const onChange = (next: CellValue, typing: boolean) => onCell(index, field, next, typing);
        const options = OPTIONS[field];
        let control;
        if (isBooleanField(field)) {
          control = (
            // The label is the hit area (44 px on a phone) around a checkbox drawn at its own size.
            <label className="hit-area">
              <input
                {...common}
                type="checkbox"
                // Blank (null): the API does not show the value and the cell leaves it unchanged.
                ref={(element) => {
                  if (element) element.indeterminate = value === null;
                }}
                title={value === null ? 'Not shown by the API: left unchanged' : undefined}
                checked={value === true}
                onChange={(event) => onChange(event.target.checked, false)}
              />
            </label>
          );
        } else if (options) {
          control = (
            <select
              {...common}
              value={value as string}
              onChange={(event) => onChange(event.target.value as CellValue, false)}
            >
              {value === '' && <option value="">— (not shown)</option>}
              <Options of={options} />
            </select>
          );
        } else {
          const Text = field === 'description' ? 'textarea' : 'input';
          control = (
            <Text
              {...common}
              {...(field === 'description'
                ? { rows: 1 }
                : {
                    type: 'text',
                    autoComplete: 'off',
                    inputMode: field === 'title' ? undefined : 'decimal',
                  })}
              value={value as string}
              onChange={(event) => onChange(event.target.value, true)}
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
          <td key={field} className={classes} data-field={field} data-label={FIELD_LABELS[field]}>
            {control}
            {changed && (
              <span id={`${id}-was`} className="visually-hidden">
                changed from {cellText(original[field]) || 'empty'}
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
      <MarginCell price={values.price} row={row} basis={basis} />
    </tr>
  );
});

/** The margin over cost at the price in the cell as edited (a dash where it is not known). */
function MarginCell({
  price,
  row,
  basis,
}: {
  price: string;
  row: CatalogueRow;
  basis: MarginBasis;
}) {
  const valid = /^\d+(\.\d{1,2})?$/.test(price.trim());
  return (
    <td className="num" data-field="margin" data-label="Margin">
      {basis.failed ? (
        '—'
      ) : (
        <MarginText
          price={valid ? price.trim() : undefined}
          itemId={row.itemId}
          promoted={row.promoted}
          basis={basis}
        />
      )}
    </td>
  );
}
