import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListingCreateInput, ListingUpdateInput, SlabdeskClient } from '../../client';
import { useApiClient } from '../api-context';
import { rememberWrite } from './written-terms';
import { applyListingWrite, type ListingWriteAnswer } from './write-answer';

/** Listing writes: answers go to the cache via `applyListingWrite`; callers' callbacks after. */

/** One listing write whose answer goes to the cache through `applyListingWrite`. */
function useListingWrite<V, L>(
  write: (client: SlabdeskClient, vars: V) => Promise<{ data: L }>,
  answerOf: (listing: L, vars: V) => ListingWriteAnswer,
) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: V) => (await write(client, vars)).data,
    onSuccess: (listing: L, vars: V) => applyListingWrite(queryClient, answerOf(listing, vars)),
  });
}

export const useUpdateListing = (id: string) =>
  useListingWrite(
    (client, vars: { patch: ListingUpdateInput; idempotencyKey?: string }) =>
      client.listings.update(id, vars.patch, { idempotencyKey: vars.idempotencyKey }),
    (listing, vars) => ({ method: 'PUT', listingId: id, body: vars.patch, listing }),
  );

export const useDeactivateListing = (id: string) =>
  useListingWrite(
    (client, _: void) => client.listings.delete(id),
    (listing) => ({ method: 'DELETE', listingId: id, listing }),
  );

export const useReactivateListing = (id: string) =>
  useListingWrite(
    (client, _: void) => client.listings.reactivate(id),
    (listing) => ({ method: 'PUT', listingId: id, body: { status: 'active' }, listing }),
  );

/** Create: the caller holds the Idempotency-Key so a retry of the same form is the same write. */
export function useCreateListing() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: { input: ListingCreateInput; idempotencyKey: string }) =>
      (await client.listings.create(vars.input, { idempotencyKey: vars.idempotencyKey })).data,
    onSuccess: (listing, vars) => {
      const { input } = vars;
      const offers = input.accepts_offers ?? true;
      rememberWrite(
        listing.id,
        {
          accepts_trades: input.accepts_trades ?? false,
          auto_relist: input.auto_relist ?? false,
          promoted: input.promoted ?? false,
          duration_hours: input.duration_hours ?? 720,
          description: listing.description,
        },
        {
          accepts_offers: offers,
          minimum_offer:
            offers && input.minimum_offer !== undefined ? String(input.minimum_offer) : null,
        },
      );
      applyListingWrite(queryClient, { method: 'POST', listingId: listing.id, listing });
    },
  });
}
