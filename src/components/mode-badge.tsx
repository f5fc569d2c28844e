/** Live or test, never to be mistaken: test is a loud striped badge, live a solid one. */
export function ModeBadge({ mode }: { mode: 'live' | 'test' | undefined }) {
  if (!mode) return <span className="mode-badge mode-unknown">Mode: connecting…</span>;
  return (
    <span className={`mode-badge mode-${mode}`} data-mode={mode}>
      {mode === 'test' ? 'TEST MODE' : 'LIVE'}
    </span>
  );
}
