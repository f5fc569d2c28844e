import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** A phone's filters in a modal sheet behind one button, so the first screen shows results. */
export function FiltersSheet({
  count,
  children,
}: {
  /** Filters in force, shown on the button. */
  count: number;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // Where the browser has no modal dialogs (a test's DOM), it is at least shown.
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="filters-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Filters{count > 0 ? ` (${count})` : ''}
      </button>
      <dialog
        ref={dialog}
        className="filters-sheet"
        aria-labelledby={titleId}
        // Escape (the browser's cancel) and a form's own close both end here.
        onClose={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            close();
          }
        }}
        onClick={(event) => {
          // A tap on the backdrop (the dialog itself, outside its content) closes it.
          if (event.target === event.currentTarget) close();
        }}
      >
        <div className="filters-sheet-body">
          <div className="filters-sheet-head">
            <h2 id={titleId}>Filters</h2>
            <button type="button" className="primary" onClick={close}>
              Done
            </button>
          </div>
          {open && <div className="filters-sheet-fields">{children}</div>}
        </div>
      </dialog>
    </>
  );
}
