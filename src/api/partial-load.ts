import { WalkStoppedError, type CollectionSnapshot, type SetAsideRecord } from '../client';

/** A whole-collection load that may have been stopped part way, keeping what it read. */
export interface PartialLoad<T> {
  rows: T[];
  setAside: SetAsideRecord[];
  /** Why the walk stopped before its end (a looping cursor, the page budget), if it did. */
  stopped: WalkStoppedError | undefined;
}

/** Awaits a load; a walk stopped part way resolves with the rows read and the reason. */
export async function keepPartial<T>(
  load: Promise<CollectionSnapshot<T>>,
): Promise<PartialLoad<T>> {
  try {
    const snapshot = await load;
    return { rows: snapshot.rows, setAside: snapshot.setAside, stopped: undefined };
  } catch (error) {
    if (!(error instanceof WalkStoppedError)) throw error;
    const partial = error.partial as { rows: T[]; setAside: SetAsideRecord[] };
    return { rows: partial.rows, setAside: partial.setAside, stopped: error };
  }
}
