import { useLayoutEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../shared/paths';

const JUMPS: Record<string, () => string> = {
  h: () => paths.overview.to(),
  l: () => paths.listings.to(),
  o: () => paths.orders.to(),
  i: () => paths.inventory.to(),
};

/** How long after `g` the second key still counts. */
const CHORD_MS = 1500;

/** Whether a key press belongs to what the seller is typing or choosing, not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.matches(
      'textarea, select, [role="textbox"], input:not([type="checkbox"], [type="radio"], [type="button"], [type="submit"], [type="reset"])',
    )
  );
}

/** `/` `g`+letter `j` `s` `?`; none while typing, with a modifier (Shift aside) or in a dialog. */
export function useKeyboardShortcuts(onHelp: () => void, onScan?: () => void) {
  const navigate = useNavigate();
  const chord = useRef<number | null>(null);
  // From the commit that shows the page, not after its paint: a key pressed at once is not lost.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const pending = chord.current !== null && event.timeStamp - chord.current < CHORD_MS;
      chord.current = null;
      if (pending) {
        const to = JUMPS[event.key];
        if (to) {
          event.preventDefault();
          void navigate(to());
        }
        return;
      }
      switch (event.key) {
        case 'g':
          chord.current = event.timeStamp;
          return;
        case '?':
          onHelp();
          break;
        case 's':
          if (!onScan) return;
          onScan();
          break;
        case '/': {
          const search = document.querySelector<HTMLInputElement>('main input[type="search"]');
          if (!search) return;
          search.focus();
          search.select();
          break;
        }
        case 'j': {
          const target = document.activeElement;
          if (target instanceof HTMLElement && target.closest('table')) return;
          const stop = document.querySelector<HTMLElement>('main table.data-table [tabindex="0"]');
          if (!stop) return;
          stop.focus();
          break;
        }
        default:
          return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate, onHelp, onScan]);
}
