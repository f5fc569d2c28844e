import type { ReactNode } from 'react';
import { WaitingStatus } from './still-waiting';

/** A page's wait for its data: after a while it says it is still waiting and offers a retry. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <WaitingStatus label={label} />;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <p>
        <strong>{title}</strong>
      </p>
      {children}
    </div>
  );
}

/** A determinate progress bar with its own text, for cursor walks. */
export function LoadProgressBar({
  label,
  value,
  max,
  detail,
  floating = false,
}: {
  label: string;
  /** Undefined: not known yet (an indeterminate bar). */
  value?: number | undefined;
  max?: number | undefined;
  detail: string;
  /** Over the page (bottom corner) instead of in its flow: nothing moves when it goes. */
  floating?: boolean;
}) {
  return (
    <div className={floating ? 'load-progress floating' : 'load-progress'} role="status">
      <label>
        {label} <progress value={value} max={max} aria-label={label} /> <span>{detail}</span>
      </label>
    </div>
  );
}
