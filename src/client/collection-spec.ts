import type * as z from 'zod/mini';

/** A collection endpoint: its path, envelope, row schema (read field by field) and row key. */
export interface CollectionSpec<S extends z.ZodMiniObject> {
  path: string;
  envelope: string;
  schema: S;
  /** The top-level field that identifies a row (`id`, or `inventory_item_id` for levels). */
  keyField: keyof z.infer<S> & string;
}
