import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections open at once from all addresses. */
  total: number;
  /** Connections open at once from one remote address. */
  perAddress: number;
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
    const address = socket.remoteAddress ?? 'unknown';
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

  /** Connections open from an address. */
  openFrom(address: string): number {
    return this.perAddress.get(address) ?? 0;
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
