import type { ReactNode } from 'react';

/** One fact of a `<dl className="facts">`: its term and its value. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
