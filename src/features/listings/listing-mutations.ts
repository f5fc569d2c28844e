import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListingCreateInput, ListingUpdateInput } from '../../client';
import { useApiClient } from '../../lib/api-context';
import { listingKeys } from './listing-keys';
import { rememberWrite } from './written-terms';

/**
 * Listing writes, each declaring what it invalidates; callers' own `mutate` callbacks run after
 * these rather than replacing them.
 */
function useInvalidateListing() {
  const queryClient = useQueryClient();
  return (id: string | undefined) =>
    Promise.all([
      id ? queryClient.invalidateQueries({ queryKey: listingKeys.detail(id) }) : undefined,
      queryClient.invalidateQueries({ queryKey: listingKeys.lists() }),
    ]);
}

export function useUpdateListing(id: string) {
  const client = useApiClient();
  const invalidate = useInvalidateListing();
  return useMutation({
    mutationFn: async (vars: { patch: ListingUpdateInput; idempotencyKey?: string }) =>
      (await client.listings.update(id, vars.patch, { idempotencyKey: vars.idempotencyKey })).data,
    onSuccess: (listing, vars) => {
      rememberWrite(id, vars.patch, listing);
      return invalidate(id);
    },
  });
}

export function useDeactivateListing(id: string) {
  const client = useApiClient();
  const invalidate = useInvalidateListing();
  return useMutation({
    mutationFn: async () => (await client.listings.delete(id)).data,
    onSuccess: () => invalidate(id),
  });
}

export function useReactivateListing(id: string) {
  const client = useApiClient();
  const invalidate = useInvalidateListing();
  return useMutation({
    mutationFn: async () => (await client.listings.reactivate(id)).data,
    onSuccess: () => invalidate(id),
  });
}

/** Create: the caller holds the Idempotency-Key so a retry of the same form is the same write. */
export function useCreateListing() {
  const client = useApiClient();
  const invalidate = useInvalidateListing();
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
      return invalidate(listing.id);
    },
  });
}
