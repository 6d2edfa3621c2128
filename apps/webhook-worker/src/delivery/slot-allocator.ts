/** The caps and the time a leased delivery may wait (DELIVERY_* settings). */
export interface SlotLimits {
  /** Attempts in flight at once, in all. */
  concurrency: number;
  /** Attempts in flight at once per endpoint. */
  perEndpoint: number;
  /** Deliveries leased ahead per endpoint beyond its free slots. */
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
  /** Endpoints that hold some and have room for more, and how many they hold. */
  busy: Array<{ endpointId: string; taken: number }>;
  /** Endpoints with no room. */
  full: string[];
}

/** What to do now: attempts to start (counted in flight from here), leases to give back. */
export interface Allocation<T> {
  start: T[];
  giveBack: T[];
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

/**
 * Decides which leased deliveries take the free slots, with no I/O and no clock of its own
 * (the caller says what time it is, in the clock of the claim times).
 *
 * Slots are bounded in all and per endpoint. Free slots go to the endpoints with work waiting
 * in turn: one that got any goes to the back of the line, so while the global cap is full each
 * slot that frees goes to the endpoint that waited longest for one, and busy endpoints cannot
 * keep another's deliveries waiting. A delivery that waited past its safe start (startWithin
 * after its claim) is not started but given back: its attempt could outlive its lease.
 *
 * It also sizes claims: per endpoint, the room its cap leaves plus the prefetch; in all, at
 * most twice the global cap held (once without prefetch).
 */
export class SlotAllocator<T extends { endpointId: string }> {
  /** Endpoints with work here, in the order they are offered free slots. */
  private readonly endpoints = new Map<string, EndpointLine<T>>();
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
   * Whether the last claim may have left due deliveries behind (an endpoint got all the room
   * it had, some had none, or the claim got all it asked for): a slot that frees should claim
   * again. Otherwise there is no need until more is stored or the next interval comes.
   */
  get moreDue(): boolean {
    return this.more;
  }

  /**
   * The room for the next claim, given how many deliveries this worker holds in all (waiting,
   * in flight, answered and not yet recorded); null when it holds all it may.
   */
  room(held: number): ClaimRoom | null {
    const { concurrency, perEndpoint, prefetch } = this.limits;
    // In flight is bounded by the global cap when attempts start; what waits, in all, by the
    // global cap again.
    const limit = concurrency * (prefetch > 0 ? 2 : 1) - held;
    if (limit <= 0) {
      this.more = true;
      return null;
    }
    const most = perEndpoint + prefetch;
    const busy: ClaimRoom['busy'] = [];
    const full: string[] = [];
    for (const [endpointId, line] of this.endpoints) {
      const taken = line.inFlight + line.waiting.length;
      if (taken >= most) full.push(endpointId);
      else busy.push({ endpointId, taken });
    }
    return { limit, perEndpoint: most, busy, full };
  }

  /** Takes what a claim for `room` got, its claim sent at `claimedAt`; they wait for a slot. */
  claimed(room: ClaimRoom, deliveries: T[], claimedAt: number): void {
    const taken = new Map(room.busy.map((each) => [each.endpointId, each.taken]));
    const got = new Map<string, number>();
    for (const { endpointId } of deliveries) got.set(endpointId, (got.get(endpointId) ?? 0) + 1);
    this.more =
      room.full.length > 0 ||
      deliveries.length >= room.limit ||
      [...got].some(([id, n]) => n >= room.perEndpoint - (taken.get(id) ?? 0));
    for (const delivery of deliveries) {
      this.line(delivery.endpointId).waiting.push({ delivery, claimedAt });
      this.waitingCount++;
    }
  }

  /**
   * At `now`, hands what waits to the free slots, as far as the caps allow, and gives back
   * what it finds past its safe start. Only the endpoints there were when it began are offered
   * slots (those moved to the back are not offered twice).
   */
  allocate(now: number): Allocation<T> {
    const allocation: Allocation<T> = { start: [], giveBack: [] };
    if (this.waitingCount === 0) return allocation;
    const claimedSince = now - this.limits.startWithin;
    let offers = this.endpoints.size;
    for (const [endpointId, line] of this.endpoints) {
      if (offers-- === 0 || this.inFlightCount >= this.limits.concurrency) break;
      const started = this.startFor(line, claimedSince, allocation);
      if (line.inFlight === 0 && line.waiting.length === 0) {
        this.endpoints.delete(endpointId);
      } else if (started > 0) {
        this.endpoints.delete(endpointId);
        this.endpoints.set(endpointId, line);
      }
    }
    return allocation;
  }

  /** An attempt for the endpoint has its answer: its slot is free. */
  finished(endpointId: string): void {
    this.inFlightCount--;
    const line = this.endpoints.get(endpointId);
    if (!line) return;
    line.inFlight--;
    if (line.inFlight === 0 && line.waiting.length === 0) this.endpoints.delete(endpointId);
  }

  /**
   * At `now`, takes out what waits and is past its safe start, whether a slot frees or not
   * (left waiting, its lease would run out here). Each endpoint's line is in claim order.
   */
  stale(now: number): T[] {
    if (this.waitingCount === 0) return [];
    const claimedSince = now - this.limits.startWithin;
    const stale: T[] = [];
    for (const [endpointId, line] of this.endpoints) {
      const fresh = line.waiting.findIndex((leased) => leased.claimedAt > claimedSince);
      const gone = line.waiting.splice(0, fresh === -1 ? line.waiting.length : fresh);
      for (const { delivery } of gone) stale.push(delivery);
      this.waitingCount -= gone.length;
      if (line.inFlight === 0 && line.waiting.length === 0) this.endpoints.delete(endpointId);
    }
    return stale;
  }

  /** Takes out everything that waits (shutting down). */
  drain(): T[] {
    const drained: T[] = [];
    for (const [endpointId, line] of this.endpoints) {
      for (const { delivery } of line.waiting) drained.push(delivery);
      line.waiting = [];
      if (line.inFlight === 0) this.endpoints.delete(endpointId);
    }
    this.waitingCount = 0;
    return drained;
  }

  /** Starts what waits for one endpoint, as far as the caps allow; returns how many. */
  private startFor(line: EndpointLine<T>, claimedSince: number, into: Allocation<T>): number {
    let started = 0;
    while (
      line.inFlight < this.limits.perEndpoint &&
      this.inFlightCount < this.limits.concurrency
    ) {
      const next = line.waiting.shift();
      if (next === undefined) break;
      this.waitingCount--;
      if (next.claimedAt <= claimedSince) {
        into.giveBack.push(next.delivery);
        continue;
      }
      line.inFlight++;
      this.inFlightCount++;
      started++;
      into.start.push(next.delivery);
    }
    return started;
  }

  private line(endpointId: string): EndpointLine<T> {
    let line = this.endpoints.get(endpointId);
    if (!line) {
      line = { inFlight: 0, waiting: [] };
      this.endpoints.set(endpointId, line);
    }
    return line;
  }
}
