import type { ReactNode } from 'react';

/**
 * Under a show's figure: how much of it waits on this phone to be sent (nothing when none); `dd`
 * inside a list of figures (a `<dl>` holds only its terms and definitions).
 */
export function WaitingPart({
  show,
  as: Tag = 'p',
  children,
}: {
  show: boolean;
  as?: 'p' | 'dd';
  children: ReactNode;
}) {
  if (!show) return null;
  return <Tag className="waiting-part">{children} waiting to be sent</Tag>;
}
