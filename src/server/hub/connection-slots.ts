import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections open at once from all addresses. */
  total: number;
  /** Connections open at once from one remote address. */
  perAddress: number;
}

/**
 * The "address" a limit counts by: an IPv4 address as it is, an IPv6 one by its /64 network, the
 * block one subscriber is handed (counting single IPv6 addresses would give an attacker millions).
 */
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

interface Held {
  address: string;
  /** A request has arrived whole and is being answered: never dropped for a newcomer. */
  busy: boolean;
}

/**
 * The door's connections, per remote address and in all. Past a limit a newcomer takes the slot
 * of the oldest connection that has not delivered a whole request (a slow upload, a silent or idle
 * socket), so holding slots open keeps no delivery out; with none such, the newcomer is closed.
 */
export class ConnectionSlots {
  /** Oldest first (a Map keeps insertion order). */
  private readonly held = new Map<Socket, Held>();
  private readonly perAddress = new Map<string, number>();
  private droppedCount = 0;

  constructor(readonly limits: ConnectionLimits) {}

  /** Takes a new connection in, or closes it at once. */
  admit(socket: Socket): void {
    const address = addressKey(socket.remoteAddress);
    const fromAddress = this.perAddress.get(address) ?? 0;
    const room =
      (fromAddress < this.limits.perAddress || this.dropOldestIdle(address)) &&
      (this.held.size < this.limits.total || this.dropOldestIdle());
    if (!room) {
      this.droppedCount++;
      socket.destroy();
      return;
    }
    this.held.set(socket, { address, busy: false });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => this.release(socket));
  }

  /** Marks the connection as answering a whole request (true) or waiting for one (false). */
  setBusy(socket: Socket, busy: boolean): void {
    const held = this.held.get(socket);
    if (held) held.busy = busy;
  }

  /** Connections open from an address (or its IPv6 network). */
  openFrom(address: string): number {
    return this.perAddress.get(addressKey(address)) ?? 0;
  }

  /** Connections closed to make room or refused for want of it. */
  dropped(): number {
    return this.droppedCount;
  }

  private dropOldestIdle(address?: string): boolean {
    for (const [socket, held] of this.held) {
      if (held.busy || (address !== undefined && held.address !== address)) continue;
      this.release(socket);
      this.droppedCount++;
      socket.destroy();
      return true;
    }
    return false;
  }

  private release(socket: Socket): void {
    const held = this.held.get(socket);
    if (!held) return;
    this.held.delete(socket);
    const left = (this.perAddress.get(held.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(held.address, left);
    else this.perAddress.delete(held.address);
  }
}
