import { createContext, Suspense, useContext, type ReactNode } from 'react';
import type { ListingRead } from '../client';

/**
 * Actions another page family adds to a listing's page (the card show's "Sold here"): the shell
 * fills the slot, so the listing pages need not import that family.
 */
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
  // A tap target's height kept from the first paint: the actions' code arrives after the page,
  // and the page below must not move when it does.
  return (
    <div style={{ minHeight: 44 }}>
      <Suspense fallback={null}>{actions(listing)}</Suspense>
    </div>
  );
}
