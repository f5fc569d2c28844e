import type { ReactNode } from 'react';

/** Under a show's figure: how much of it waits on this phone to be sent (nothing when none). */
export function WaitingPart({ show, children }: { show: boolean; children: ReactNode }) {
  if (!show) return null;
  return <p className="waiting-part">{children} waiting to be sent</p>;
}
