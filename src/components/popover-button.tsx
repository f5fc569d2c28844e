import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** A button opening a panel below it; Escape, a click outside or Tab past the end closes it. */
export function PopoverButton({
  label,
  panelLabel,
  className,
  children,
}: {
  label: ReactNode;
  /** The panel's name for a screen reader ("Columns to show"). */
  panelLabel: string;
  className?: string;
  /** The panel's content; `close` closes it (focus back on the button). */
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  // Each close that gives focus back counts up; the effect below moves focus after the render.
  const [refocus, setRefocus] = useState(0);
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) setRefocus((n) => n + 1);
  };

  useEffect(() => {
    if (refocus > 0) button.current?.focus();
  }, [refocus]);

  useEffect(() => {
    if (!open) return;
    panel.current
      ?.querySelector<HTMLElement>('input:not([disabled]), select, button:not([disabled])')
      ?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  return (
    <div
      ref={wrapper}
      className={`popover${className ? ` ${className}` : ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          // Only this panel closes, not a dialog or the page's own Escape.
          event.stopPropagation();
          close(true);
        }
      }}
      onBlur={(event) => {
        // Focus moved on to something outside (Tab past the end); a click is the listener's.
        const next = event.relatedTarget as Node | null;
        if (open && next && !wrapper.current?.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="popover-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      <div
        ref={panel}
        id={id}
        className="popover-panel"
        role="group"
        aria-label={panelLabel}
        hidden={!open}
      >
        {open && children(() => close(true))}
      </div>
    </div>
  );
}
