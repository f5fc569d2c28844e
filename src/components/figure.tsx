import type { ReactNode } from 'react';
import { formatDateTime, formatFullDate, formatMoney, formatShortDate } from '../lib/format';

/** What a figure is: the figures spec finds them by this mark (`data-figure`). */
export type FigureKind = 'money' | 'code' | 'cert' | 'date' | 'count';

/** A figure that never breaks inside: one line, tabular numerals (src/app/figures.css). */
export function Figure({ kind, children }: { kind: FigureKind; children: ReactNode }) {
  return (
    <span className="figure" data-figure={kind}>
      {children}
    </span>
  );
}

/** "$1,234.50", whole on one line. */
export function Money({ amount }: { amount: string | null | undefined }) {
  return <Figure kind="money">{formatMoney(amount)}</Figure>;
}

/** A date for a table ("Nov 27"), the whole date on hover and for screen readers. */
export function ShortDate({
  iso,
  time = false,
}: {
  iso: string | null | undefined;
  time?: boolean;
}) {
  if (!iso || Number.isNaN(Date.parse(iso))) return <>{iso ? iso : '—'}</>;
  const full = formatFullDate(iso);
  return (
    <time className="figure" data-figure="date" dateTime={iso} title={full}>
      <span aria-hidden="true">{formatShortDate(iso, { time })}</span>
      <span className="visually-hidden">{full}</span>
    </time>
  );
}

/** An instant, an order code or a dollar amount inside a sentence. */
const FIGURES_IN_TEXT =
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})|\bSL-[A-Z0-9]+\b|-?\$[\d,]+(?:\.\d+)?/g;

/** A server's sentence that may wrap, its dates short and its order codes unbroken. */
export function FiguresIn({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(FIGURES_IN_TEXT)) {
    const at = match.index;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      match[0].startsWith('SL-') ? (
        <Figure key={at} kind="code">
          {match[0]}
        </Figure>
      ) : match[0].includes('$') ? (
        <Figure key={at} kind="money">
          {match[0]}
        </Figure>
      ) : (
        <ShortDate key={at} iso={match[0]} time />
      ),
    );
    last = at + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** "Nov 24, 2026, 03:59 PM", whole on one line (a detail page's date, where there is room). */
export function FullDate({ iso }: { iso: string | null | undefined }) {
  return <Figure kind="date">{formatDateTime(iso)}</Figure>;
}
