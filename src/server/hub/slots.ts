/** The "address" a limit counts by: IPv4 as it is, IPv6 by the /64 one subscriber is handed. */
export function addressKey(remote: string | undefined): string {
  if (!remote) return 'unknown';
  if (!remote.includes(':') || remote.startsWith('::ffff:')) return remote.replace(/^::ffff:/, '');
  const [head = '', tail] = remote.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** Slots in all and per key (an address); past a limit the oldest idle holder is dropped. */
export class Slots<T> {
  /** Oldest first (a Map keeps insertion order). */
  private readonly held = new Map<T, { key: string; busy: boolean }>();
  private readonly perKey = new Map<string, number>();
  private most = 0;

  constructor(
    readonly limits: { total: number; perKey: number },
    private readonly drop: (holder: T) => void,
  ) {}

  /** A slot for `holder`, made by dropping an idle one if need be; false when none could be. */
  take(holder: T, key = ''): boolean {
    const room =
      (this.inUse(key) < this.limits.perKey || this.dropOldestIdle(key)) &&
      (this.held.size < this.limits.total || this.dropOldestIdle());
    if (!room) return false;
    this.held.set(holder, { key, busy: false });
    this.perKey.set(key, this.inUse(key) + 1);
    this.most = Math.max(this.most, this.held.size);
    return true;
  }

  /** Marks the holder as busy (never dropped for a newcomer) or idle again. */
  setBusy(holder: T, busy: boolean): void {
    const held = this.held.get(holder);
    if (held) held.busy = busy;
  }

  release(holder: T): void {
    const held = this.held.get(holder);
    if (!held) return;
    this.held.delete(holder);
    const left = this.inUse(held.key) - 1;
    if (left > 0) this.perKey.set(held.key, left);
    else this.perKey.delete(held.key);
  }

  inUse(key?: string): number {
    return key === undefined ? this.held.size : (this.perKey.get(key) ?? 0);
  }

  peak(): number {
    return this.most;
  }

  private dropOldestIdle(key?: string): boolean {
    for (const [holder, held] of this.held) {
      if (held.busy || (key !== undefined && held.key !== key)) continue;
      this.release(holder);
      this.drop(holder);
      return true;
    }
    return false;
  }
}
