/**
 * Items waiting by share (one session's calls), served round-robin: a share with many items waiting
 * gets one turn per round like any other, so one session's flood never makes another wait for it.
 * Within a share the oldest item that may go goes first: an item held back (its tab has its bound
 * in flight) leaves the share's turn to the next of its items.
 */
export class FairQueue<T> {
  /** A Map keeps insertion order: the order of the round, the share served last at the back. */
  private readonly shares = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(share: string, item: T): void {
    const items = this.shares.get(share);
    if (items) items.push(item);
    else this.shares.set(share, [item]);
    this.count++;
  }

  /** Takes `item` out; false when it was not waiting (already served or removed). */
  remove(share: string, item: T): boolean {
    const items = this.shares.get(share);
    const index = items ? items.indexOf(item) : -1;
    if (!items || index < 0) return false;
    items.splice(index, 1);
    if (items.length === 0) this.shares.delete(share);
    this.count--;
    return true;
  }

  countOf(share: string): number {
    return this.shares.get(share)?.length ?? 0;
  }

  /** Whether an item that `may` allows is waiting. */
  hasNext(may: (share: string, item: T) => boolean): boolean {
    for (const [share, items] of this.shares) {
      if (items.some((item) => may(share, item))) return true;
    }
    return false;
  }

  /**
   * The oldest item that `may` allows of the next share in the round with one; that share goes
   * last.
   */
  next(may: (share: string, item: T) => boolean): T | undefined {
    for (const [share, items] of this.shares) {
      const index = items.findIndex((item) => may(share, item));
      if (index < 0) continue;
      const [item] = items.splice(index, 1);
      this.shares.delete(share);
      if (items.length > 0) this.shares.set(share, items);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Every item, taken out. */
  drain(): T[] {
    const all = [...this.shares.values()].flat();
    this.shares.clear();
    this.count = 0;
    return all;
  }
}
