import { Injectable } from '@nestjs/common';

/**
 * What this gateway knows about one key's month that Redis may have lost or never heard of.
 * `seen` and `persisted` are lower bounds of the true count (every count Redis or Postgres ever
 * held was); `unsent` is this process's own, so adding it anywhere counts it once.
 */
export interface LedgerEntry {
  readonly keyHash: string;
  readonly keyId: string;
  readonly month: string;
  /** The generation of the month counter `seen` was read from ('' before any). */
  generation: string;
  /** The highest count Redis answered this process. */
  seen: number;
  /** Requests this process served without Redis counting them. */
  unsent: number;
  /** The highest count Postgres is known to hold. */
  persisted: number;
  touchedAt: number;
}

/** What the gate sends with a request: the caller's entry, its unsent requests taken out. */
export interface Carried {
  keyId: string | null;
  generation: string;
  seen: number;
  unsent: number;
}

/**
 * The gateway's own memory of the monthly counts, so that a Redis that loses its data (a
 * restart, FLUSHDB) or cannot be reached never makes a count go backwards: the counts this
 * process saw are floors for the counter Redis seeds again, and the requests it served
 * without Redis are added to it once Redis is back (access-gate.script.ts `settle`). Entries
 * are dropped once Postgres holds what they know (UsageFlusher), so the ledger holds about
 * one flush interval of keys.
 */
@Injectable()
export class UsageLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  /** The entry sent with a request; its unsent requests travel with it (see `giveBack`). */
  carry(keyHash: string, month: string, now = Date.now()): Carried {
    const entry = this.entries.get(id(keyHash, month));
    if (!entry) return { keyId: null, generation: '', seen: 0, unsent: 0 };
    const { keyId, generation, seen, unsent } = entry;
    entry.unsent = 0;
    entry.touchedAt = now;
    return { keyId, generation, seen, unsent };
  }

  /** Unsent requests that did not reach Redis after all. */
  giveBack(keyHash: string, month: string, carried: Carried): void {
    if (carried.unsent > 0 && carried.keyId !== null) {
      this.countUnsent(keyHash, carried.keyId, month, carried.unsent);
    }
  }

  /** Redis answered: the counter's generation and count. */
  observe(keyHash: string, keyId: string, month: string, generation: string, count: number): void {
    const entry = this.entry(keyHash, keyId, month);
    entry.generation = generation;
    entry.seen = Math.max(entry.seen, count);
  }

  /** Requests served that Redis did not count. */
  countUnsent(keyHash: string, keyId: string, month: string, requests: number): void {
    this.entry(keyHash, keyId, month).unsent += requests;
  }

  /** Postgres was found to hold `count` (or more). */
  confirm(entry: LedgerEntry, count: number): void {
    entry.persisted = Math.max(entry.persisted, count);
  }

  /** Forgets entries Postgres holds everything of, if untouched since `idleBefore`. */
  prune(idleBefore: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.unsent === 0 && entry.seen <= entry.persisted && entry.touchedAt < idleBefore) {
        this.entries.delete(key);
      }
    }
  }

  all(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  get size(): number {
    return this.entries.size;
  }

  private entry(keyHash: string, keyId: string, month: string): LedgerEntry {
    const key = id(keyHash, month);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        keyHash,
        keyId,
        month,
        generation: '',
        seen: 0,
        unsent: 0,
        persisted: 0,
        touchedAt: 0,
      };
      this.entries.set(key, entry);
    }
    entry.touchedAt = Date.now();
    return entry;
  }
}

function id(keyHash: string, month: string): string {
  return `${keyHash}:${month}`;
}
