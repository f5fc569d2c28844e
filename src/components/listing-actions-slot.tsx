import { createContext, Suspense, useContext, type ReactNode } from 'react';
import type { ListingRead } from '../client';

/** Actions another page family adds to a listing's page: the shell fills the slot (no import). */
const ListingActionsContext = createContext<((listing: ListingRead) => ReactNode) | null>(null);

export function ListingActionsProvider({
  actions,
  children,
}: {
  actions: (listing: ListingRead) => ReactNode;
  children: ReactNode;
}) {
  return (
    <ListingActionsContext.Provider value={actions}>{children}</ListingActionsContext.Provider>
  );
}

/** The slot: whatever the shell put there, for this listing (nothing when it put nothing). */
export function ListingActionsSlot({ listing }: { listing: ListingRead }) {
  const actions = useContext(ListingActionsContext);
  if (!actions) return null;
  // A tap target's height from the first paint, so the page does not move when actions arrive.
  return (
    <div style={{ minHeight: 44 }}>
      <Suspense fallback={null}>{actions(listing)}</Suspense>
    </div>
  );
}
