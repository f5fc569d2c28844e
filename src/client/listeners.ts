/** The listeners of one store or event: `subscribe` returns its own undo, `tell` calls each. */
export class Listeners<A extends unknown[] = []> {
  private readonly set = new Set<(...args: A) => void>();

  subscribe = (listener: (...args: A) => void): (() => void) => {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  };

  tell(...args: A): void {
    for (const listener of this.set) listener(...args);
  }

  get size(): number {
    return this.set.size;
  }
}
