/**
 * The in-page half of the phone-layout spec: every control a seller can see and tap, measured as
 * a fingertip meets it, and every box that would make the seller scroll sideways. Runs inside the
 * page (`page.evaluate(smallTargets)`), so it refers to nothing outside.
 */

export interface TapFinding {
  what: string;
  problem: string;
}

/** Controls under 44 × 44 px (a checkbox or radio by its label), or past the window's edge. */
export function smallTargets(): TapFinding[] {
  const MIN = 44 - 0.5;
  const width = window.innerWidth;
  const findings: TapFinding[] = [];

  /** Hidden, drawn for screen readers only, or inside a closed disclosure. */
  const unseen = (element: Element): boolean => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      if (e.matches('[hidden], [inert], .visually-hidden')) return true;
      const style = getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden') return true;
      if (e.parentElement?.matches('details:not([open])') && !e.matches('summary')) return true;
    }
    return false;
  };

  /** Its name, for the failure message: what a seller or a screen reader calls it. */
  const name = (element: Element): string => {
    const labelled =
      element.getAttribute('aria-label') ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.textContent ??
      '';
    const tag = element.tagName.toLowerCase();
    const type = element.getAttribute('type');
    return `${tag}${type ? `[${type}]` : ''} "${labelled.trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
  };

  const controls = document.querySelectorAll(
    'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"]',
  );
  for (const control of controls) {
    if (unseen(control)) continue;
    // A link inside a sentence is part of the text (WCAG's inline exception), as the house's
    // stylesheet treats it.
    if (control.matches('p a, li > p a')) continue;
    // A skip link is drawn only while focused.
    if (control.matches('.skip-link')) continue;
    const box = control.matches('input[type="checkbox"], input[type="radio"]')
      ? (control.closest('label') ?? control)
      : control;
    const rect = box.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    if (rect.width < MIN || rect.height < MIN) {
      findings.push({
        what: name(control),
        problem: `${Math.round(rect.width)} × ${Math.round(rect.height)} px`,
      });
    } else if (rect.left < -0.5 || rect.right > width + 0.5) {
      findings.push({ what: name(control), problem: 'past the window’s edge' });
    }
  }
  return findings;
}

/** Boxes in the page that scroll sideways (the page itself is measured on its own). */
export function sidewaysBoxes(): TapFinding[] {
  const found: TapFinding[] = [];
  for (const element of document.querySelectorAll('body *')) {
    const style = getComputedStyle(element);
    if (!/auto|scroll/.test(style.overflowX)) continue;
    if (style.display === 'none') continue;
    if (element.scrollWidth > element.clientWidth + 1) {
      const cls = element.classList[0];
      found.push({
        what: `${element.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`,
        problem: `scrolls sideways by ${element.scrollWidth - element.clientWidth} px`,
      });
    }
  }
  return found;
}

/** Hints for a desk's keyboard in what the page shows ("Ctrl+D fills down", "Shift+↓"). */
export function deskHints(): string[] {
  const text = document.body.innerText;
  const found: string[] = [];
  for (const rule of [/\bCtrl\+\w/, /\bShift\+\S/, /⌘/, /\bArrows, Tab and Enter\b/]) {
    const hit = rule.exec(text);
    if (hit) found.push(`"…${text.slice(Math.max(0, hit.index - 20), hit.index + 30)}…"`);
  }
  return found;
}
