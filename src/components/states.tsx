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
}: {
  label: string;
  value: number;
  max?: number | undefined;
  detail: string;
}) {
  return (
    <div className="load-progress" role="status">
      <label>
        {label} <progress value={value} max={max} aria-label={label} /> <span>{detail}</span>
      </label>
    </div>
  );
}
