import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import { VIEWS_PATH, type ViewTable } from '../../shared/saved-views';
import { callServer } from '../server-call';

/** Saved views kept by our server per account (`/hub/views`): every device of a seller sees them. */

const SavedView = z.object({ name: z.string(), search: z.string() });
export type SavedView = z.infer<typeof SavedView>;
const Views = z.object({ views: z.array(SavedView) });

/** A list of views as this page keeps them (one kept by an older build may not be). */
export const isViewList = (value: unknown): value is SavedView[] =>
  z.safeParse(z.array(SavedView), value).success;

export const fetchViews = (client: SlabdeskClient, table: ViewTable, signal?: AbortSignal) =>
  callServer(client, Views, `${VIEWS_PATH}?table=${table}`, { signal }).then((a) => a.views);

/** Saves a view by name (a view of that name is replaced); the table's views after it. */
export const putView = (client: SlabdeskClient, table: ViewTable, view: SavedView) =>
  callServer(client, Views, VIEWS_PATH, { method: 'PUT', body: { table, ...view } }).then(
    (answer) => answer.views,
  );

export const deleteView = (client: SlabdeskClient, table: ViewTable, name: string) =>
  callServer(client, Views, VIEWS_PATH, { method: 'DELETE', body: { table, name } }).then(
    (answer) => answer.views,
  );
