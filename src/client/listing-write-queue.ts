import { ApiError } from './api-error';
import {
  newIdempotencyKey,
  type ListingWrite,
  type ListingWriteResult,
  type SlabdeskClient,
} from './client';
import type { RequestPriority } from './pacer';
import { WriteQueue } from './write-queue';

/** What a listing write queue needs of the client: its runner of one listing write. */
export interface ListingWriter {
  listings: Pick<SlabdeskClient['listings'], 'runWrite'>;
}

export interface ListingWriteQueueOptions {
  concurrency?: number;
  /** The priority of every write (default `bulk`: a long job never starves a click). */
  priority?: RequestPriority;
  /** Asked before each write: a reason (e.g. `sold_meanwhile`) fails it unsent with that code. */
  skip?: (op: ListingWrite) => string | undefined;
  /** Headers every write carries (a bulk job's `X-Slabdesk-Bulk-Job`, for the activity log). */
  headers?: Record<string, string>;
}

/** Many listing writes; one listing's run in turn. Own module: not in the first load. */
export function listingWriteQueue(client: ListingWriter, options: ListingWriteQueueOptions = {}) {
  const priority = options.priority ?? 'bulk';
  const queue = new WriteQueue<ListingWrite, ListingWriteResult>(
    (op, context) => {
      const reason = options.skip?.(op);
      if (reason !== undefined) {
        return Promise.reject(
          new ApiError({
            status: 0,
            code: reason,
            message: `Not sent: ${reason.replace(/_/g, ' ')}`,
          }),
        );
      }
      const headers = options.headers;
      return client.listings.runWrite(op, {
        ...context,
        priority,
        ...(headers ? { headers } : {}),
      });
    },
    { concurrency: options.concurrency, newKey: newIdempotencyKey },
  );
  const keyOf = (op: ListingWrite) => (op.kind === 'create' ? undefined : op.id);
  return Object.assign(queue, {
    /** Adds listing writes, serialized per listing id. */
    addWrites: (ops: readonly ListingWrite[]) => queue.add(ops, { keyOf }),
  });
}

export type ListingWriteQueue = ReturnType<typeof listingWriteQueue>;
