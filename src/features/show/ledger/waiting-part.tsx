import { formatDollars } from '../../../shared/money';
import type { ShowTotals } from '../../../shared/show-tenders';

/** A figure of a show's totals as written: the cards sold as a count, the rest as money. */
export const totalFigure = (name: keyof ShowTotals, value: number) =>
  name === 'cardsSold' ? value : formatDollars(value);

/** Under a show's figure, the part of it waiting on this phone (none: nothing); `dd` in a `<dl>`. */
export function WaitingPart({
  name,
  waiting,
  as: Tag = 'p',
}: {
  name: keyof ShowTotals;
  waiting: ShowTotals;
  as?: 'p' | 'dd';
}) {
  if (waiting[name] === 0) return null;
  return (
    <Tag className="waiting-part">
      <span className="figure">{totalFigure(name, waiting[name])}</span> of{' '}
      {name === 'cardsSold' ? 'them' : 'it'} waiting to be sent
    </Tag>
  );
}
