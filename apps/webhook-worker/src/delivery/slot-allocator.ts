/** The caps and the time a leased delivery may wait (DELIVERY_* settings). */
export interface SlotLimits {
  /** Attempts in flight at once, in all. */
  concurrency: number;
  /** Attempts in flight at once per workspace (all its endpoints together). */
  perWorkspace: number;
  /** Attempts in flight at once per endpoint. */
  perEndpoint: number;
  /** Deliveries leased ahead per endpoint (and per workspace) beyond its free slots. */
  prefetch: number;
  /** How long (ms) after its claim a leased delivery may still start (see startWindow). */
  startWithin: number;
}

/**
 * How long after its claim a delivery may still start: its attempt (the timeout at most) and
 * its recording (a margin: a tenth of the lease, or half of what the timeout leaves of it if
 * that is less) must end before its lease does.
 */
export function startWindow(leaseMs: number, timeoutMs: number): number {
  const margin = Math.min(leaseMs / 10, (leaseMs - timeoutMs) / 2);
  return leaseMs - timeoutMs - margin;
}

/** What the next claim may take. */
export interface ClaimRoom {
  /** Deliveries to lease at most, in all. */
  limit: number;
  /** The most an endpoint may hold: its slots and its prefetch. */
  perEndpoint: number;
  /** The most a workspace may hold: its slots and the prefetch. */
  perWorkspace: number;
  /** Endpoints that hold some and have room for more, and how many they hold. */
  busy: Array<{ endpointId: string; taken: number }>;
  /** Endpoints with no room. */
  full: string[];
  /** Workspaces that hold some and have room for more, and how many they hold. */
  busyWorkspaces: Array<{ workspaceId: string; taken: number }>;
  /** Workspaces with no room. */
  fullWorkspaces: string[];
}

/** What to do now: attempts to start (counted in flight from here), leases to give back. */
export interface Allocation<T> {
  start: T[];
  giveBack: T[];
}

/** What the allocator needs to know of a delivery: whose it is. */
export interface Owned {
  endpointId: string;
  workspaceId: string;
}

/** A claimed delivery and when its claim was sent (its lease is younger). */
interface Leased<T> {
  delivery: T;
  claimedAt: number;
}

/** An endpoint's attempts in flight and its leased deliveries waiting for a slot. */
interface EndpointLine<T> {
  inFlight: number;
  waiting: Leased<T>[];
}

/** A workspace's endpoints with work here, in the order they are offered its slots. */
interface WorkspaceLine<T> {
  inFlight: number;
  waiting: number;
  endpoints: Map<string, EndpointLine<T>>;
}

/**
 * Decides which leased deliveries take the free slots, with no I/O and no clock of its own
 * (the caller says what time it is, in the clock of the claim times).
 *
 * Slots are bounded in all, per workspace and per endpoint. Workspaces with work waiting are
 * offered free slots one after another, each up to its own cap (so one pass can fill a
 * workspace's 20 before the next gets any, but never more), and a workspace that got any goes
 * to the back of the line; inside a workspace its endpoints take its slots one at a time in
 * turn. So while the global cap is full each slot that frees goes to the workspace that waited
 * longest for one, and a workspace with any number of busy (or dead) endpoints holds at most
 * its own cap: it cannot keep another workspace's deliveries waiting. A delivery that waited
 * past its safe start (startWithin after its claim) is not started but given back: its attempt
 * could outlive its lease.
 *
 * It also sizes claims: per endpoint and per workspace, the room its cap leaves plus the
 * prefetch; in all, at most twice the global cap held (once without prefetch).
 */
export class SlotAllocator<T extends Owned> {
  /** Workspaces with work here, in the order they are offered free slots. */
  private readonly workspaces = new Map<string, WorkspaceLine<T>>();
  private waitingCount = 0;
  private inFlightCount = 0;
  private more = true;

  constructor(private readonly limits: SlotLimits) {}

  /** Leased deliveries waiting for a slot, in all. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Attempts in flight, in all. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /**
   * Whether the last claim may have left due deliveries behind (an endpoint or a workspace got
   * all the room it had, some had none, or the claim got all it asked for): a slot that frees
   * should claim again. Otherwise there is no need until more is stored or the next interval.
   */
  get moreDue(): boolean {
    return this.more;
  }

  /**
   * The room for the next claim, given how many deliveries this worker holds in all (waiting,
   * in flight, answered and not yet recorded); null when it holds all it may.
   */
  room(held: number): ClaimRoom | null {
    const { concurrency, perEndpoint, perWorkspace, prefetch } = this.limits;
    // In flight is bounded by the global cap when attempts start; what waits, in all, by the
    // global cap again.
    const limit = concurrency * (prefetch > 0 ? 2 : 1) - held;
    if (limit <= 0) {
      this.more = true;
      return null;
    }
    const room: ClaimRoom = {
      limit,
      perEndpoint: perEndpoint + prefetch,
      perWorkspace: perWorkspace + prefetch,
      busy: [],
      full: [],
      busyWorkspaces: [],
      fullWorkspaces: [],
    };
    for (const [workspaceId, workspace] of this.workspaces) {
      const taken = workspace.inFlight + workspace.waiting;
      if (taken >= room.perWorkspace) room.fullWorkspaces.push(workspaceId);
      else room.busyWorkspaces.push({ workspaceId, taken });
      for (const [endpointId, line] of workspace.endpoints) {
        const endpointTaken = line.inFlight + line.waiting.length;
        if (endpointTaken >= room.perEndpoint) room.full.push(endpointId);
        else room.busy.push({ endpointId, taken: endpointTaken });
      }
    }
    return room;
  }

  /** Takes what a claim for `room` got, its claim sent at `claimedAt`; they wait for a slot. */
  claimed(room: ClaimRoom, deliveries: T[], claimedAt: number): void {
    const filled = (
      busy: Array<{ id: string; taken: number }>,
      got: Map<string, number>,
      most: number,
    ) => {
      const taken = new Map(busy.map((each) => [each.id, each.taken]));
      return [...got].some(([id, n]) => n >= most - (taken.get(id) ?? 0));
    };
    const byEndpoint = new Map<string, number>();
    const byWorkspace = new Map<string, number>();
    for (const { endpointId, workspaceId } of deliveries) {
      byEndpoint.set(endpointId, (byEndpoint.get(endpointId) ?? 0) + 1);
      byWorkspace.set(workspaceId, (byWorkspace.get(workspaceId) ?? 0) + 1);
    }
    this.more =
      room.full.length > 0 ||
      room.fullWorkspaces.length > 0 ||
      deliveries.length >= room.limit ||
      filled(
        room.busy.map((each) => ({ id: each.endpointId, taken: each.taken })),
        byEndpoint,
        room.perEndpoint,
      ) ||
      filled(
        room.busyWorkspaces.map((each) => ({ id: each.workspaceId, taken: each.taken })),
        byWorkspace,
        room.perWorkspace,
      );
    for (const delivery of deliveries) {
      const workspace = this.workspace(delivery.workspaceId);
      this.line(workspace, delivery.endpointId).waiting.push({ delivery, claimedAt });
      workspace.waiting++;
      this.waitingCount++;
    }
  }

  /**
   * At `now`, hands what waits to the free slots, as far as the caps allow, and gives back
   * what it finds past its safe start. Only the workspaces (and endpoints) there were when it
   * began are offered slots (those moved to the back are not offered twice).
   */
  allocate(now: number): Allocation<T> {
    const allocation: Allocation<T> = { start: [], giveBack: [] };
    if (this.waitingCount === 0) return allocation;
    const claimedSince = now - this.limits.startWithin;
    let offers = this.workspaces.size;
    for (const [workspaceId, workspace] of this.workspaces) {
      if (offers-- === 0 || this.inFlightCount >= this.limits.concurrency) break;
      const started = this.startInWorkspace(workspace, claimedSince, allocation);
      if (workspace.inFlight === 0 && workspace.waiting === 0) {
        this.workspaces.delete(workspaceId);
      } else if (started > 0) {
        this.workspaces.delete(workspaceId);
        this.workspaces.set(workspaceId, workspace);
      }
    }
    return allocation;
  }

  /** An attempt for the endpoint has its answer: its slot is free. */
  finished(delivery: Owned): void {
    this.inFlightCount--;
    const workspace = this.workspaces.get(delivery.workspaceId);
    if (!workspace) return;
    workspace.inFlight--;
    const line = workspace.endpoints.get(delivery.endpointId);
    if (line) {
      line.inFlight--;
      if (line.inFlight === 0 && line.waiting.length === 0) {
        workspace.endpoints.delete(delivery.endpointId);
      }
    }
    this.dropIfIdle(delivery.workspaceId, workspace);
  }

  /**
   * At `now`, takes out what waits and is past its safe start, whether a slot frees or not
   * (left waiting, its lease would run out here). Each endpoint's line is in claim order.
   */
  stale(now: number): T[] {
    if (this.waitingCount === 0) return [];
    const claimedSince = now - this.limits.startWithin;
    const stale: T[] = [];
    for (const [workspaceId, workspace] of this.workspaces) {
      for (const [endpointId, line] of workspace.endpoints) {
        const fresh = line.waiting.findIndex((leased) => leased.claimedAt > claimedSince);
        const gone = line.waiting.splice(0, fresh === -1 ? line.waiting.length : fresh);
        for (const { delivery } of gone) stale.push(delivery);
        this.waitingCount -= gone.length;
        workspace.waiting -= gone.length;
        if (line.inFlight === 0 && line.waiting.length === 0)
          workspace.endpoints.delete(endpointId);
      }
      this.dropIfIdle(workspaceId, workspace);
    }
    return stale;
  }

  /** Takes out everything that waits (shutting down). */
  drain(): T[] {
    const drained: T[] = [];
    for (const [workspaceId, workspace] of this.workspaces) {
      for (const [endpointId, line] of workspace.endpoints) {
        for (const { delivery } of line.waiting) drained.push(delivery);
        line.waiting = [];
        if (line.inFlight === 0) workspace.endpoints.delete(endpointId);
      }
      workspace.waiting = 0;
      this.dropIfIdle(workspaceId, workspace);
    }
    this.waitingCount = 0;
    return drained;
  }

  /**
   * Starts what waits in one workspace, as far as the caps allow, one endpoint after another:
   * each pass starts at most one attempt per endpoint, so its endpoints share its slots.
   * Returns how many started.
   */
  private startInWorkspace(
    workspace: WorkspaceLine<T>,
    claimedSince: number,
    into: Allocation<T>,
  ): number {
    let started = 0;
    for (;;) {
      let progress = false;
      let offers = workspace.endpoints.size;
      for (const [endpointId, line] of workspace.endpoints) {
        if (offers-- === 0 || !this.roomIn(workspace)) break;
        const one = this.startOne(workspace, line, claimedSince, into);
        if (line.inFlight === 0 && line.waiting.length === 0) {
          workspace.endpoints.delete(endpointId);
        } else if (one) {
          workspace.endpoints.delete(endpointId);
          workspace.endpoints.set(endpointId, line);
        }
        if (one) {
          started++;
          progress = true;
        }
      }
      if (!progress || !this.roomIn(workspace) || workspace.waiting === 0) return started;
    }
  }

  private roomIn(workspace: WorkspaceLine<T>): boolean {
    return (
      this.inFlightCount < this.limits.concurrency && workspace.inFlight < this.limits.perWorkspace
    );
  }

  /**
   * Starts the endpoint's next delivery if its cap allows, giving back on the way what waited
   * past its safe start; whether one started.
   */
  private startOne(
    workspace: WorkspaceLine<T>,
    line: EndpointLine<T>,
    claimedSince: number,
    into: Allocation<T>,
  ): boolean {
    while (line.inFlight < this.limits.perEndpoint) {
      const next = line.waiting.shift();
      if (next === undefined) return false;
      this.waitingCount--;
      workspace.waiting--;
      if (next.claimedAt <= claimedSince) {
        into.giveBack.push(next.delivery);
        continue;
      }
      line.inFlight++;
      workspace.inFlight++;
      this.inFlightCount++;
      into.start.push(next.delivery);
      return true;
    }
    return false;
  }

  private workspace(workspaceId: string): WorkspaceLine<T> {
    let workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      workspace = { inFlight: 0, waiting: 0, endpoints: new Map() };
      this.workspaces.set(workspaceId, workspace);
    }
    return workspace;
  }

  private line(workspace: WorkspaceLine<T>, endpointId: string): EndpointLine<T> {
    let line = workspace.endpoints.get(endpointId);
    if (!line) {
      line = { inFlight: 0, waiting: [] };
      workspace.endpoints.set(endpointId, line);
    }
    return line;
  }

  private dropIfIdle(workspaceId: string, workspace: WorkspaceLine<T>): void {
    if (workspace.inFlight === 0 && workspace.waiting === 0 && workspace.endpoints.size === 0) {
      this.workspaces.delete(workspaceId);
    }
  }
}
