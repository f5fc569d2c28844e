import * as z from 'zod/mini';
import { fields } from '../shared/lazy-fields';

/** One answer of the hub's change feed, for server and page; rows checked only to be records. */
export const HubFeedFailure = z.object(
  fields({
    status: () => z.number(),
    code: () => z.string(),
    message: () => z.string(),
    /** The marketplace's request id of the refused call, when it gave one. */
    requestId: () => z.nullable(z.string()),
  }),
);
export type HubFeedFailure = z.infer<typeof HubFeedFailure>;

export const HubFeedHead = z.object(
  fields({
    /** True when these rows begin a snapshot: the browser's rows of the collection are replaced. */
    whole: () => z.boolean(),
    /** Another answer follows at once: ask again with `cursor`. */
    more: () => z.boolean(),
    cursor: () => z.string(),
    /** The hub's newest change number when the answer was made. */
    change: () => z.number(),
    /** The collection was read whole from the marketplace (false: the first fill is still going). */
    filled: () => z.boolean(),
    /** The API's time the hub's last read of the collection began (ISO), if any. */
    syncedAt: () => z.nullable(z.string()),
    /** Every record of the collection the API could not read, by id, with when it was last seen. */
    setAside: () =>
      z.array(
        z.object({ id: z.string(), code: z.string(), message: z.string(), seenAt: z.string() }),
      ),
    /** Why the first fill stopped, while the collection is not filled (the rows read so far stay). */
    failure: () => z.nullable(HubFeedFailure),
  }),
);
export type HubFeedHead = z.infer<typeof HubFeedHead>;

export const HubFeedAnswer = z.extend(HubFeedHead, { rows: z.array(z.unknown()) });
