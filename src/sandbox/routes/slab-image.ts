import type { InventoryItemRow } from '../store/rows';

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Cut to `max` characters on a word, with an ellipsis: a label line of the slab. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** The grader's label colour, as their slabs are told apart at a glance. */
const LABEL_COLOURS: Record<string, string> = { PSA: '#c8102e', BGS: '#1f2a44', SGC: '#111111' };

/** A graded slab as SVG: plain shapes and text, no script or reference (`default-src 'none'`). */
export function slabSvg(
  item: Pick<InventoryItemRow, 'grader' | 'grade' | 'title' | 'cert_number'>,
) {
  const colour = LABEL_COLOURS[item.grader] ?? '#334155';
  const title = clip(item.title, 30);
  const more = item.title.length > 30 ? clip(item.title.slice(title.length - 1).trim(), 30) : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="400" viewBox="0 0 240 400" role="img">`,
    `<title>${escape(`${item.grader} ${item.grade}: ${item.title}, cert ${item.cert_number}`)}</title>`,
    `<rect x="2" y="2" width="236" height="396" rx="14" fill="#eef2f6" stroke="#94a3b8" stroke-width="3"/>`,
    `<rect x="14" y="14" width="212" height="84" rx="6" fill="${colour}"/>`,
    `<text x="26" y="44" font-family="sans-serif" font-size="22" font-weight="700" fill="#fff">${escape(item.grader)}</text>`,
    `<text x="214" y="48" text-anchor="end" font-family="sans-serif" font-size="30" font-weight="700" fill="#fff">${escape(item.grade)}</text>`,
    `<text x="26" y="68" font-family="sans-serif" font-size="11" fill="#fff">${escape(title)}</text>`,
    more
      ? `<text x="26" y="82" font-family="sans-serif" font-size="11" fill="#fff">${escape(more)}</text>`
      : '',
    `<text x="214" y="92" text-anchor="end" font-family="monospace" font-size="10" fill="#fff">#${escape(item.cert_number)}</text>`,
    `<rect x="30" y="112" width="180" height="270" rx="8" fill="#fff" stroke="#cbd5e1" stroke-width="2"/>`,
    `<rect x="44" y="126" width="152" height="160" rx="4" fill="${colour}" opacity="0.18"/>`,
    `<text x="120" y="318" text-anchor="middle" font-family="sans-serif" font-size="13" fill="#334155">${escape(clip(item.title.split(' #')[0] ?? item.title, 22))}</text>`,
    `</svg>`,
  ].join('');
}
