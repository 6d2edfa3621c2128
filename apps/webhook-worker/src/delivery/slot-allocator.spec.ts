import { SlotAllocator, startWindow, type ClaimRoom, type SlotLimits } from './slot-allocator';

interface Delivery {
  id: string;
  endpointId: string;
  workspaceId: string;
}

/** An endpoint's owner: unless told, each endpoint is the only one of its own workspace. */
function of(endpointId: string, workspaceId = `ws-${endpointId}`) {
  return { endpointId, workspaceId };
}

/** `count` deliveries to `endpointId`, named `<endpoint>1`, `<endpoint>2`, ... */
function to(endpointId: string, count: number, from = 1, workspaceId?: string): Delivery[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${endpointId}${from + i}`,
    ...of(endpointId, workspaceId),
  }));
}

const ids = (deliveries: Delivery[]) => deliveries.map((delivery) => delivery.id);

function allocator(limits: Partial<SlotLimits> = {}): SlotAllocator<Delivery> {
  return new SlotAllocator<Delivery>({
    concurrency: 10,
    perWorkspace: 10,
    perEndpoint: 2,
    prefetch: 3,
    startWithin: 600,
    ...limits,
  });
}

/** Claims as the scheduler does: the room first, then what the claim got, at `at`. */
function claim(slots: SlotAllocator<Delivery>, got: Delivery[], at = 0, held = 0): ClaimRoom {
  const room = slots.room(held);
  if (!room) throw new Error('no room');
  slots.claimed(room, got, at);
  return room;
}

describe('startWindow: how long a leased delivery may wait and still start', () => {
  it('leaves the attempt timeout and a recording margin of the lease', () => {
    // margin = min(lease / 10, (lease - timeout) / 2)
    expect(startWindow(30_000, 10_000)).toBe(17_000);
    expect(startWindow(1_000, 300)).toBe(600);
    expect(startWindow(1_500, 1_000)).toBe(350);
    expect(startWindow(1_000, 900)).toBe(50);
  });
});

describe('SlotAllocator', () => {
  describe('sizing claims', () => {
    it('asks for twice the global cap with prefetch, once without, less what is held', () => {
      expect(allocator({ concurrency: 10, prefetch: 3 }).room(0)?.limit).toBe(20);
      expect(allocator({ concurrency: 10, prefetch: 0 }).room(0)?.limit).toBe(10);
      expect(allocator({ concurrency: 10, prefetch: 3 }).room(15)?.limit).toBe(5);
    });

    it('asks for nothing once it holds all it may, and expects more is due', () => {
      const slots = allocator({ concurrency: 10, prefetch: 3 });
      claim(slots, to('a', 1)); // got less than it could: nothing more due
      expect(slots.moreDue).toBe(false);
      expect(slots.room(20)).toBeNull();
      expect(slots.room(25)).toBeNull();
      expect(slots.moreDue).toBe(true);
    });

    it('gives each endpoint its slots plus prefetch, less what it holds, and leaves full ones out', () => {
      const slots = allocator({ perEndpoint: 2, prefetch: 3 });
      claim(slots, [...to('a', 5), ...to('b', 2)]);
      slots.allocate(1); // a: 2 in flight, 3 waiting; b: 2 in flight
      const room = slots.room(7);
      expect(room).toEqual({
        limit: 13,
        perEndpoint: 5,
        perWorkspace: 13,
        busy: [{ endpointId: 'b', taken: 2 }],
        full: ['a'],
        busyWorkspaces: [
          { workspaceId: 'ws-a', taken: 5 },
          { workspaceId: 'ws-b', taken: 2 },
        ],
        fullWorkspaces: [],
      });
    });

    it('counts in-flight attempts and waiting deliveries as taken', () => {
      const slots = allocator({ perEndpoint: 1, prefetch: 3 });
      claim(slots, to('a', 3));
      slots.allocate(1);
      expect(slots.room(3)?.busy).toEqual([{ endpointId: 'a', taken: 3 }]);
      slots.finished(of('a'));
      slots.allocate(2);
      expect(slots.room(2)?.busy).toEqual([{ endpointId: 'a', taken: 2 }]);
    });

    it('expects more due when the claim got all it asked for, an endpoint filled up, or one was full', () => {
      // Less than asked, no endpoint at its cap: nothing left behind.
      const some = allocator({ concurrency: 10, perEndpoint: 2, prefetch: 3 });
      claim(some, [...to('a', 4), ...to('b', 1)]);
      expect(some.moreDue).toBe(false);
      // An endpoint got all its room (5): it may have more due.
      const filled = allocator({ concurrency: 10, perEndpoint: 2, prefetch: 3 });
      claim(filled, to('a', 5));
      expect(filled.moreDue).toBe(true);
      // ... its room being what it did not hold yet.
      claim(filled, [], 0, 5);
      expect(filled.moreDue).toBe(true); // a is full, left out
      // The claim got its whole limit.
      const all = allocator({ concurrency: 2, perEndpoint: 5, prefetch: 1 });
      claim(all, [...to('a', 2), ...to('b', 2)]);
      expect(all.moreDue).toBe(true);
    });

    it('counts room per endpoint against what it already held', () => {
      const slots = allocator({ concurrency: 50, perEndpoint: 2, prefetch: 3 });
      claim(slots, to('a', 2));
      expect(slots.moreDue).toBe(false);
      // a holds 2: 3 more fill it.
      claim(slots, to('a', 3, 3), 0, 2);
      expect(slots.moreDue).toBe(true);
    });
  });

  describe('starting attempts', () => {
    it('starts nothing when nothing waits', () => {
      expect(allocator().allocate(0)).toEqual({ start: [], giveBack: [] });
    });

    it('keeps each endpoint within its cap; the rest waits leased ahead', () => {
      const slots = allocator({ perEndpoint: 2, prefetch: 3 });
      claim(slots, to('a', 5));
      const { start, giveBack } = slots.allocate(1);
      expect(ids(start)).toEqual(['a1', 'a2']);
      expect(giveBack).toEqual([]);
      expect(slots.inFlight).toBe(2);
      expect(slots.waiting).toBe(3);
      expect(slots.allocate(2).start).toEqual([]);
      // A slot that frees goes to the next in claim order.
      slots.finished(of('a'));
      expect(ids(slots.allocate(3).start)).toEqual(['a3']);
      expect(slots.inFlight).toBe(2);
      expect(slots.waiting).toBe(2);
    });

    it('keeps all endpoints together within the global cap', () => {
      const slots = allocator({ concurrency: 3, perEndpoint: 2, prefetch: 2 });
      claim(slots, [...to('a', 2), ...to('b', 2)]);
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'a2', 'b1']);
      expect(slots.inFlight).toBe(3);
      expect(slots.allocate(2).start).toEqual([]);
      slots.finished(of('a'));
      expect(ids(slots.allocate(3).start)).toEqual(['b2']);
    });

    it('offers free slots to endpoints in turn: the one served goes to the back', () => {
      // The global cap is full with a's attempts; b and c each wait with one delivery.
      const slots = allocator({ concurrency: 2, perEndpoint: 2, prefetch: 8 });
      claim(slots, [...to('a', 6), ...to('b', 1), ...to('c', 1)]);
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'a2']);
      // Each slot that frees goes to the endpoint that waited longest for one, not back to a.
      slots.finished(of('a'));
      expect(ids(slots.allocate(2).start)).toEqual(['b1']);
      slots.finished(of('a'));
      expect(ids(slots.allocate(3).start)).toEqual(['c1']);
      slots.finished(of('b'));
      expect(ids(slots.allocate(4).start)).toEqual(['a3']);
      slots.finished(of('c'));
      expect(ids(slots.allocate(5).start)).toEqual(['a4']);
    });

    it('gives the first slot that frees to an endpoint claimed behind busy ones', () => {
      // One claim: a and b (claimed first) fill the global cap; late waits behind them.
      const slots = allocator({ concurrency: 4, perEndpoint: 2, prefetch: 4 });
      claim(slots, [...to('a', 3), ...to('b', 3), ...to('late', 1)]);
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'a2', 'b1', 'b2']);
      // a's slot frees, but a and b were served already: late is first in line.
      slots.finished(of('a'));
      expect(ids(slots.allocate(2).start)).toEqual(['late1']);
      slots.finished(of('b'));
      expect(ids(slots.allocate(3).start)).toEqual(['a3']);
    });

    it('serves every endpoint with work in a pass, each as far as its cap allows', () => {
      const slots = allocator({ concurrency: 10, perEndpoint: 1, prefetch: 5 });
      claim(slots, [...to('a', 3), ...to('b', 3)]);
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'b1']);
      slots.finished(of('a'));
      slots.finished(of('b'));
      expect(ids(slots.allocate(2).start)).toEqual(['a2', 'b2']);
    });

    it('forgets an endpoint with nothing in flight and nothing waiting', () => {
      const slots = allocator({ perEndpoint: 2, prefetch: 0 });
      claim(slots, to('a', 1));
      slots.allocate(1);
      slots.finished(of('a'));
      expect(slots.inFlight).toBe(0);
      expect(slots.room(0)).toEqual({
        limit: 10,
        perEndpoint: 2,
        perWorkspace: 10,
        busy: [],
        full: [],
        busyWorkspaces: [],
        fullWorkspaces: [],
      });
    });
  });

  describe('sharing between workspaces', () => {
    it('keeps a workspace within its cap, however many endpoints it has', () => {
      const slots = allocator({ concurrency: 20, perWorkspace: 3, perEndpoint: 2, prefetch: 2 });
      claim(slots, [...to('a', 2, 1, 'w'), ...to('b', 2, 1, 'w'), ...to('c', 2, 1, 'w')]);
      // Its endpoints share its slots in turn: one each, not a's two first.
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'b1', 'c1']);
      expect(slots.allocate(2).start).toEqual([]);
      slots.finished(of('b', 'w'));
      expect(ids(slots.allocate(3).start)).toEqual(['a2']);
      slots.finished(of('a', 'w'));
      expect(ids(slots.allocate(4).start)).toEqual(['b2']);
    });

    it('gives a slot that frees to the workspace that waited, not back to the busy one', () => {
      // w fills the global cap through five endpoints; v waits with one delivery.
      const slots = allocator({ concurrency: 4, perWorkspace: 4, perEndpoint: 1, prefetch: 4 });
      const busy = ['a', 'b', 'c', 'd', 'e'].flatMap((e) => to(e, 2, 1, 'w'));
      claim(slots, [...busy, ...to('v', 1, 1, 'v')]);
      expect(ids(slots.allocate(1).start)).toEqual(['a1', 'b1', 'c1', 'd1']);
      slots.finished(of('a', 'w'));
      expect(ids(slots.allocate(2).start)).toEqual(['v1']);
      slots.finished(of('b', 'w'));
      // Back to w, whose endpoint that waited longest (e) goes first.
      expect(ids(slots.allocate(3).start)).toEqual(['e1']);
    });

    it('leaves room in the global cap for others while a workspace is at its own cap', () => {
      const slots = allocator({ concurrency: 10, perWorkspace: 3, perEndpoint: 10, prefetch: 3 });
      claim(slots, [...to('dead', 6, 1, 'w'), ...to('ok', 2, 1, 'v')]);
      expect(ids(slots.allocate(1).start)).toEqual(['dead1', 'dead2', 'dead3', 'ok1', 'ok2']);
      expect(slots.inFlight).toBe(5);
    });

    it('sizes claims per workspace: full workspaces are left out, busy ones counted', () => {
      const slots = allocator({ concurrency: 20, perWorkspace: 2, perEndpoint: 5, prefetch: 1 });
      claim(slots, [...to('a', 2, 1, 'w'), ...to('b', 1, 1, 'w'), ...to('c', 1, 1, 'v')]);
      expect(slots.moreDue).toBe(true); // w got all its room (3)
      const room = slots.room(4);
      expect(room?.perWorkspace).toBe(3);
      expect(room?.fullWorkspaces).toEqual(['w']);
      expect(room?.busyWorkspaces).toEqual([{ workspaceId: 'v', taken: 1 }]);
    });
  });

  describe('handing back what waited past its safe start', () => {
    it('gives back, instead of starting, a delivery whose claim is startWithin old', () => {
      const slots = allocator({ perEndpoint: 1, prefetch: 3, startWithin: 600 });
      claim(slots, to('a', 2), 1_000);
      claim(slots, to('a', 2, 3), 1_300, 2);
      expect(ids(slots.allocate(1_100).start)).toEqual(['a1']);
      slots.finished(of('a'));
      // a2 was claimed at 1000: at 1600 it may no longer start; a3 (1300) may.
      const { start, giveBack } = slots.allocate(1_600);
      expect(ids(giveBack)).toEqual(['a2']);
      expect(ids(start)).toEqual(['a3']);
      expect(slots.waiting).toBe(1);
    });

    it('starts one claimed just within startWithin', () => {
      const slots = allocator({ startWithin: 600 });
      claim(slots, to('a', 1), 1_000);
      expect(ids(slots.allocate(1_599).start)).toEqual(['a1']);
    });

    it('finds stale deliveries whether a slot frees or not, and only those', () => {
      const slots = allocator({ perEndpoint: 1, prefetch: 4, startWithin: 600 });
      claim(slots, to('a', 3), 0);
      claim(slots, to('b', 1), 0, 3);
      claim(slots, to('a', 1, 4), 500, 4);
      expect(ids(slots.allocate(100).start)).toEqual(['a1', 'b1']);
      // No slot has freed: a2, a3 (claimed at 0) are stale at 600, a4 (500) is not.
      expect(ids(slots.stale(599))).toEqual([]);
      expect(ids(slots.stale(600))).toEqual(['a2', 'a3']);
      expect(slots.waiting).toBe(1);
      expect(ids(slots.stale(1_100))).toEqual(['a4']);
      expect(slots.waiting).toBe(0);
      expect(slots.inFlight).toBe(2);
    });

    it('forgets an endpoint whose waiting work all went back', () => {
      const slots = allocator({ startWithin: 600 });
      claim(slots, to('a', 2), 0);
      expect(ids(slots.stale(700))).toEqual(['a1', 'a2']);
      expect(slots.room(0)?.busy).toEqual([]);
    });

    it('hands back everything waiting when draining, leaving attempts in flight', () => {
      const slots = allocator({ perEndpoint: 1, prefetch: 3 });
      claim(slots, [...to('a', 3), ...to('b', 1)]);
      slots.allocate(1);
      expect(ids(slots.drain())).toEqual(['a2', 'a3']);
      expect(slots.waiting).toBe(0);
      expect(slots.inFlight).toBe(2);
      expect(slots.allocate(2)).toEqual({ start: [], giveBack: [] });
      expect(slots.room(2)?.busy).toEqual([
        { endpointId: 'a', taken: 1 },
        { endpointId: 'b', taken: 1 },
      ]);
    });
  });
});
