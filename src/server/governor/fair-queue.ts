/** Items by share, round-robin (one turn per share per round); in a share, the oldest that may go. */
export class FairQueue<T> {
  // A Map keeps insertion order: the order of the round, the share served last at the back.
  private readonly shares = new Map<string, T[]>();
  size = 0;

  add(share: string, item: T): void {
    const items = this.shares.get(share);
    if (items) items.push(item);
    else this.shares.set(share, [item]);
    this.size++;
  }

  remove(share: string, item: T): boolean {
    const items = this.shares.get(share);
    const index = items ? items.indexOf(item) : -1;
    if (!items || index < 0) return false;
    items.splice(index, 1);
    if (items.length === 0) this.shares.delete(share);
    this.size--;
    return true;
  }

  countOf(share: string): number {
    return this.shares.get(share)?.length ?? 0;
  }

  hasNext(may: (share: string, item: T) => boolean): boolean {
    return [...this.shares].some(([share, items]) => items.some((item) => may(share, item)));
  }

  /** The oldest item `may` allows of the next share in the round with one; that share goes last. */
  next(may: (share: string, item: T) => boolean): T | undefined {
    for (const [share, items] of this.shares) {
      const index = items.findIndex((item) => may(share, item));
      if (index < 0) continue;
      const [item] = items.splice(index, 1);
      this.shares.delete(share);
      if (items.length > 0) this.shares.set(share, items);
      this.size--;
      return item;
    }
    return undefined;
  }

  drain(): T[] {
    const all = [...this.shares.values()].flat();
    this.shares.clear();
    this.size = 0;
    return all;
  }
}
