import { useEffect, useId, useRef } from 'react';

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
  { keys: ['s'], does: "Scan a slab's label (camera, or type the cert)" },
  { keys: ['?'], does: 'Show these shortcuts' },
];

/** The shortcuts' help: a modal listing every shortcut; Escape or Close ends it, focus returns. */
export default function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
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
