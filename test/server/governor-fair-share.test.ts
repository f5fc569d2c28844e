import { describe, expect, it, vi } from 'vitest';
import type { PacerTicket } from '../../src/client/pacer';
import { FairQueue } from '../../src/server/governor/fair-queue';
import { KeyGovernor, TooManyWaitingError } from '../../src/server/governor/key-governor';

/** The governor's fair share, unit by unit: the round-robin queue, then the gate over a pacer. */

const room = () => new Headers({ 'x-service-api-call-limit': '1/40' });

describe('FairQueue', () => {
  it('serves shares in turn, each its oldest item first, whatever each has waiting', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.add('a', item);
    queue.add('b', 'b1');
    queue.add('c', 'c1');
    queue.add('b', 'b2');
    const order: (string | undefined)[] = [];
    while (queue.size > 0) order.push(queue.next(() => true));
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it("serves a share's oldest item that may go, its turn kept for it", () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'x3', 'a4']) queue.add('a', item);
    queue.add('b', 'b1');
    const notA = (_share: string, item: string) => !item.startsWith('a');
    expect(queue.next(notA)).toBe('x3');
    expect(queue.next(notA)).toBe('b1');
    expect(queue.hasNext(notA)).toBe(false);
    expect(queue.next(() => true)).toBe('a1');
    expect(queue.size).toBe(2);
  });

  it('skips a share that may not go, and takes out an item on request', () => {
    const queue = new FairQueue<string>();
    queue.add('a', 'a1');
    queue.add('b', 'b1');
    queue.add('b', 'b2');
    expect(queue.next((share) => share !== 'a')).toBe('b1');
    expect(queue.remove('b', 'b2')).toBe(true);
    expect(queue.remove('b', 'b2')).toBe(false);
    expect(queue.countOf('b')).toBe(0);
    expect(queue.hasNext((share) => share !== 'a')).toBe(false);
    expect(queue.drain()).toEqual(['a1']);
    expect(queue.size).toBe(0);
  });
});

describe("the governor's fair share", () => {
  it("gives a session arriving behind another's queue the next turn", async () => {
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 1 });
    const first = await governor.acquire('interactive', undefined, 'viewer');
    governor.settle(first, 200, room());
    const held = await governor.acquire('interactive', undefined, 'viewer');
    const order: string[] = [];
    const viewer = Array.from({ length: 5 }, (_, i) =>
      governor.acquire('interactive', undefined, 'viewer').then((ticket) => {
        order.push(`viewer ${i}`);
        return ticket;
      }),
    );
    const owner = governor.acquire('interactive', undefined, 'owner').then((ticket) => {
      order.push('owner');
      return ticket;
    });
    governor.settle(held, 200, room());
    governor.settle(await viewer[0]!, 200, room());
    governor.settle(await owner, 200, room());
    expect(order).toEqual(['viewer 0', 'owner']);
    for (const call of viewer.slice(1)) governor.settle(await call, 200, room());
  });

  it("refuses a session's calls past its waiting bound, with a wait to retry after", async () => {
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 1, maxWaitingPerShare: 3 });
    const held = await governor.acquire('interactive', undefined, 's');
    const waiting = [1, 2, 3].map(() => governor.acquire('bulk', undefined, 's'));
    const refused = governor.acquire('background', undefined, 's');
    await expect(refused).rejects.toBeInstanceOf(TooManyWaitingError);
    await expect(refused).rejects.toMatchObject({ waiting: 3 });
    // Another session is not refused.
    const other = governor.acquire('interactive', undefined, 't');
    expect(governor.snapshot().waiting).toBe(4);
    governor.settle(held, 200, room());
    governor.settle(await other, 200, room());
    for (const call of waiting) governor.settle(await call, 200, room());
    expect(governor.snapshot()).toMatchObject({ waiting: 0, inFlight: 0 });
  });

  it('holds a session to its share of the slots in flight, leaving the rest to others', async () => {
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 4 });
    const calibrating = await governor.acquire('interactive');
    governor.settle(calibrating, 200, room());
    const hung: PacerTicket[] = [];
    // From two tabs, so the session's bound holds them, not a tab's.
    for (let i = 0; i < 4; i++) {
      void governor
        .acquire('interactive', undefined, 'hung', i % 2 === 0 ? 'a' : 'b')
        .then((ticket) => hung.push(ticket));
    }
    // The share's two go; its other two wait in the gate, not the pacer.
    await vi.waitFor(() => expect(hung).toHaveLength(2));
    expect(governor.snapshot()).toMatchObject({ inFlight: 2, waiting: 2 });
    await expect(governor.acquire('interactive', undefined, 'other')).resolves.toBeDefined();
    // A slot of the share freed: its next call goes.
    governor.settle(hung[0]!, 0, null);
    await vi.waitFor(() => expect(hung).toHaveLength(3));
    expect(governor.snapshot().waiting).toBe(1);
  });

  it("holds a tab to all but one of its session's slots: another tab of it goes at once", async () => {
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 8 });
    const calibrating = await governor.acquire('interactive');
    governor.settle(calibrating, 200, room());
    const hung: PacerTicket[] = [];
    for (let i = 0; i < 10; i++) {
      void governor.acquire('interactive', undefined, 's', 'a').then((ticket) => hung.push(ticket));
    }
    // Three of the session's four: the other seven wait behind them, in their own tab, and the
    // gate asks the pacer for nobody (none of them may go until one of the three settles).
    await vi.waitFor(() => expect(hung).toHaveLength(3));
    expect(governor.snapshot()).toMatchObject({ inFlight: 3, waiting: 7 });
    expect(governor.pacer.snapshot().waiting).toBe(0);
    const otherTab = await governor.acquire('interactive', undefined, 's', 'b');
    // Now the session has its four in flight: a third tab waits for one of them.
    let third: PacerTicket | undefined;
    void governor.acquire('interactive', undefined, 's', 'c').then((ticket) => (third = ticket));
    expect(governor.snapshot()).toMatchObject({ inFlight: 4, waiting: 8 });
    expect(governor.pacer.snapshot().waiting).toBe(0);
    governor.settle(otherTab, 200, room());
    await vi.waitFor(() => expect(third).toBeDefined());
    // Every other session still has the other half.
    await expect(governor.acquire('interactive', undefined, 't')).resolves.toBeDefined();
  });

  it('takes a call back when its signal aborts while it waits', async () => {
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 1 });
    const held = await governor.acquire('interactive', undefined, 's');
    const gone = new AbortController();
    const waiting = governor.acquire('interactive', gone.signal, 's');
    expect(governor.snapshot().waiting).toBe(1);
    gone.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(governor.snapshot().waiting).toBe(0);
    governor.settle(held, 200, room());
    await expect(governor.acquire('interactive', undefined, 's')).resolves.toBeDefined();
  });
});
