import { Figure } from '../../components/figure';
import { fieldOf, RecordField, type MarkedRecord } from '../../components/record-field';
import type { SlabFacts } from '../../api/listings/slab-facts';

interface LineItemFacts {
  title?: string | undefined;
  sku?: string | undefined;
}

/** What tells slabs apart: title, then grader and grade, cert, year and set, each whole. */
export function SlabLine({
  order,
  slab,
  isNew = false,
}: {
  order: MarkedRecord & { line_items?: readonly LineItemFacts[] | undefined };
  slab: SlabFacts | undefined;
  isNew?: boolean;
}) {
  return (
    <RecordField {...fieldOf(order, 'line_items')}>
      {(items) => {
        const line = items[0];
        const cert = slab?.cert ?? line?.sku;
        const grading = [slab?.grader, slab?.grade].filter(Boolean).join(' ');
        const yearSet = [slab?.year, slab?.set].filter(Boolean).join(' ');
        return (
          <div className="slab-line">
            <span className="slab-title">
              {isNew && <span className="new-mark">New</span>}
              {line?.title ?? slab?.title ?? '—'}
            </span>
            <span className="slab-facts muted">
              {grading && <Figure kind="count">{grading}</Figure>}
              {cert && (
                <>
                  {grading && ' · '}
                  cert <Figure kind="cert">{cert}</Figure>
                </>
              )}
              {yearSet && <> · {yearSet}</>}
            </span>
          </div>
        );
      }}
    </RecordField>
  );
}
