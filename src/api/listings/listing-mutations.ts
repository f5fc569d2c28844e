import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListingCreateInput, ListingUpdateInput } from '../../client';
import { useApiClient } from '../api-context';
import { rememberWrite } from './written-terms';
import { applyListingWrite } from './write-answer';

/** Listing writes: answers go to the cache via `applyListingWrite`; callers' callbacks after. */

export function useUpdateListing(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: { patch: ListingUpdateInput; idempotencyKey?: string }) =>
      (await client.listings.update(id, vars.patch, { idempotencyKey: vars.idempotencyKey })).data,
    onSuccess: (listing, vars) =>
      applyListingWrite(queryClient, { method: 'PUT', listingId: id, body: vars.patch, listing }),
  });
}

export function useDeactivateListing(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await client.listings.delete(id)).data,
    onSuccess: (listing) =>
      applyListingWrite(queryClient, { method: 'DELETE', listingId: id, listing }),
  });
}

export function useReactivateListing(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await client.listings.reactivate(id)).data,
    onSuccess: (listing) =>
      applyListingWrite(queryClient, {
        method: 'PUT',
        listingId: id,
        body: { status: 'active' },
        listing,
      }),
  });
}

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
