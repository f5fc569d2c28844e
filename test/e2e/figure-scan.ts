/**
 * The in-page half of the figures spec: finds every money figure, order code, cert number and
 * date on the page (the elements marked `data-figure`, and any text matching a figure's pattern,
 * marked or not) and says which are broken across lines, cut by their box, or past the window's
 * edge. Runs inside the page (`page.evaluate(scanFigures)`), so it refers to nothing outside.
 */

export interface Finding {
  kind: string;
  text: string;
  problem: 'broken across lines' | 'past the edge' | 'cut by its box';
  where: string;
}

export function scanFigures(): Finding[] {
  const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
  const PATTERNS: [string, RegExp][] = [
    ['money', /[-−]?\$\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?/g],
    ['order code', /\bSL-[A-Z0-9]{4,}\b/g],
    ['cert', /(?<![\d.,$])\d{7,10}(?![\d.,])/g],
    [
      'date',
      new RegExp(
        `\\b${MONTH} \\d{1,2}(?:, \\d{4})?(?:,? (?:at )?\\d{1,2}:\\d{2}(?:\\s?[AP]M)?)?`,
        'g',
      ),
    ],
  ];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const width = window.innerWidth;

  /** Part of an element a seller cannot see: hidden, or drawn for screen readers only. */
  const unseen = (element: Element | null): boolean => {
    for (let e = element; e; e = e.parentElement) {
      if (e.matches('script, style, noscript, template, option, title, [hidden]')) return true;
      const style = getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden') return true;
      if (style.clip !== 'auto' && style.clip !== '') return true;
      if (style.clipPath !== 'none' && style.clipPath !== '') return true;
      if (e.classList.contains('visually-hidden')) return true;
      // Inside a closed disclosure: not drawn until the seller opens it (its summary is).
      if (e.parentElement?.matches('details:not([open])') && !e.matches('summary')) return true;
    }
    return false;
  };

  /** A short path to the element, for the failure message. */
  const where = (element: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = element; e && parts.length < 4; e = e.parentElement) {
      const label = e.getAttribute('data-label');
      const cls = e.classList[0];
      parts.unshift(
        `${e.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${label ? `[${label}]` : ''}`,
      );
      if (e.tagName === 'MAIN' || e.tagName === 'HEADER') break;
    }
    return parts.join(' > ');
  };

  /** The line boxes of a range: its rects, those sharing a line merged. */
  const lines = (rects: DOMRect[]): DOMRect[][] => {
    const out: DOMRect[][] = [];
    for (const rect of [...rects].sort((a, b) => a.top - b.top)) {
      const middle = (rect.top + rect.bottom) / 2;
      const line = out.find((l) => l.some((r) => middle > r.top && middle < r.bottom));
      if (line) line.push(rect);
      else out.push([rect]);
    }
    return out;
  };

  /** The boxes that clip the element's overflow (not those that scroll it), nearest first. */
  const clippers = (element: Element): Element[] => {
    const found: Element[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) {
      if (e === document.body || e === document.documentElement) break;
      const style = getComputedStyle(e);
      const cuts =
        /hidden|clip/.test(style.overflowX) ||
        /hidden|clip/.test(style.overflowY) ||
        style.textOverflow === 'ellipsis';
      if (cuts) found.push(e);
    }
    return found;
  };

  const check = (kind: string, text: string, ranges: Range[], element: Element) => {
    const rects = ranges
      .flatMap((range) => [...range.getClientRects()])
      .filter((r) => r.width > 0.5 && r.height > 0.5);
    if (rects.length === 0) return;
    const key = `${kind}|${text}|${Math.round(rects[0]!.left)}|${Math.round(rects[0]!.top)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const at = where(element);
    if (lines(rects).length > 1) {
      findings.push({ kind, text, problem: 'broken across lines', where: at });
      return;
    }
    const left = Math.min(...rects.map((r) => r.left));
    const right = Math.max(...rects.map((r) => r.right));
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    if (left < -0.5 || right > width + 0.5) {
      findings.push({ kind, text, problem: 'past the edge', where: at });
      return;
    }
    for (const box of clippers(element)) {
      const b = box.getBoundingClientRect();
      const s = getComputedStyle(box);
      // An ellipsis takes the place of what passes the content's edge; a clip cuts at the padding's.
      const inset =
        (parseFloat(s.borderRightWidth) || 0) +
        (s.textOverflow === 'ellipsis' ? parseFloat(s.paddingRight) || 0 : 0);
      const cutX = /hidden|clip/.test(s.overflowX) || s.textOverflow === 'ellipsis';
      const cutY = /hidden|clip/.test(s.overflowY);
      if (
        (cutX && (right > b.right - inset + 1 || left < b.left - 1)) ||
        (cutY && (bottom > b.bottom + 1 || top < b.top - 1))
      ) {
        findings.push({ kind, text, problem: 'cut by its box', where: at });
        return;
      }
    }
  };

  /** The text a seller sees inside an element: its text nodes, less the hidden ones. */
  const seenText = (element: Element): Text[] => {
    const found: Text[] = [];
    const inner = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = inner.nextNode(); node; node = inner.nextNode()) {
      if ((node.nodeValue ?? '').trim() !== '' && !unseen(node.parentElement)) {
        found.push(node as Text);
      }
    }
    return found;
  };

  // The figures the markup names: each whole element is one figure.
  for (const element of document.querySelectorAll('[data-figure]')) {
    if (unseen(element)) continue;
    const nodes = seenText(element);
    const ranges = nodes.map((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range;
    });
    const text = nodes.map((node) => node.nodeValue).join('');
    check(element.getAttribute('data-figure') || 'figure', text, ranges, element);
  }

  // Every text node, by pattern: the figures nobody marked.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    const parent = node.parentElement;
    if (!parent || text.trim() === '' || unseen(parent)) continue;
    for (const [kind, pattern] of PATTERNS) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        check(kind, match[0], [range], parent);
      }
    }
  }
  return findings;
}

/** How far the page scrolls sideways: the document's width beyond the window's. */
export function sidewaysScroll(): number {
  return document.documentElement.scrollWidth - window.innerWidth;
}

/**
 * Words for us, not for sellers, in what the page shows (its rendered text and its hover
 * titles): "(s)" plurals, HTTP verbs, "bucket", ISO timestamps.
 */
export function ourWords(): string[] {
  const titles = [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title'));
  const text = [document.body.innerText, ...titles].join('\n');
  const found: string[] = [];
  const rules: [string, RegExp][] = [
    ['"(s)"', /\w\(s\)/],
    ['an HTTP verb', /\b(?:PUT|POST|PATCH|DELETE)\b/],
    ['"bucket"', /bucket/i],
    ['an ISO time', /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
  ];
  for (const [name, rule] of rules) {
    const hit = rule.exec(text);
    if (hit)
      found.push(`${name} in "…${text.slice(Math.max(0, hit.index - 40), hit.index + 30)}…"`);
  }
  return found;
}
