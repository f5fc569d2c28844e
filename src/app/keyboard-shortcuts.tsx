import { useEffect, useId, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../lib/paths';

/** The shortcuts, as the help dialog lists them (keys pressed one after the other). */
export const SHORTCUTS: readonly { keys: readonly string[]; does: string }[] = [
  { keys: ['/'], does: 'Search this page (listings, orders, inventory)' },
  { keys: ['j'], does: 'Go to the table; then ↑ ↓ (or j k) move between rows' },
  { keys: ['Enter'], does: 'In a table: open the row' },
  { keys: ['Space'], does: 'In a table: select the row (Shift: the range)' },
  { keys: ['g', 'h'], does: 'Go to the overview' },
  { keys: ['g', 'l'], does: 'Go to listings' },
  { keys: ['g', 'o'], does: 'Go to orders' },
  { keys: ['g', 'i'], does: 'Go to inventory' },
  { keys: ['?'], does: 'Show these shortcuts' },
];

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

/**
 * The page-wide shortcuts: `/` focuses the page's search, `g` then a letter jumps to a page, `j`
 * goes to the page's table and `?` opens the help. None fires while typing in a field, with a
 * modifier held (Shift aside), or while a dialog is open.
 */
export function useKeyboardShortcuts(onHelp: () => void) {
  const navigate = useNavigate();
  const chord = useRef<number | null>(null);
  useEffect(() => {
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
  }, [navigate, onHelp]);
}

/** The shortcuts' help: a modal listing every shortcut; Escape or Close ends it, focus returns. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement;
    returnTo.current = before instanceof HTMLElement ? before : null;
    closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  const close = () => {
    onClose();
    returnTo.current?.focus();
  };
  return (
    <div className="dialog-backdrop">
      <div
        className="dialog shortcuts-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(event) => {
          if (event.key === 'Escape' || event.key === '?') {
            event.preventDefault();
            close();
          } else if (event.key === 'Tab') {
            // One control: focus stays in the dialog.
            event.preventDefault();
            closeRef.current?.focus();
          }
        }}
      >
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <dl className="shortcut-list">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.keys.join(' ')}>
              <dt>
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && ' then '}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{shortcut.does}</dd>
            </div>
          ))}
        </dl>
        <p className="muted">Shortcuts do nothing while you type in a field.</p>
        <div className="dialog-actions">
          <button type="button" ref={closeRef} onClick={close}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
