import {
  RawJson,
  RegisterRpc,
  isListUnchanged,
  type ListReply,
  type RawQuery,
  type ReplyOf,
} from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { GatewayConfig } from '../config/gateway-config';
import { RegisterClient } from './register-client';

type ListContract = typeof RegisterRpc.assetsList | typeof RegisterRpc.peopleList;

interface Kept {
  tag: string;
  bytes: Buffer;
}

/**
 * The register's lists, with the last bytes of each unpaged one kept (up to UNPAGED_CACHE_MB,
 * least recently used first out). A request for an unpaged list quotes the tag of the bytes
 * kept for it; the register answers ListUnchanged after one primary-key read when nothing they
 * show has changed (a rows version bumped in the transaction of every such change), and they
 * are answered again; otherwise it reads the list and the new bytes replace the old. So the
 * 2.4 MB of a 10,000-row array cross RabbitMQ only when they changed, and the answer is never
 * older than the request (ADR 0014, "The unpaged array").
 *
 * Pages are not kept: they are cheap to read and the register caches what makes them costly.
 */
@Injectable()
export class UnpagedLists {
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;
  private readonly budget: number;

  constructor(
    private readonly register: RegisterClient,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.budget = config.UNPAGED_CACHE_MB * 1024 * 1024;
  }

  list<C extends ListContract>(
    contract: C,
    access: AccessRecord,
    query: RawQuery,
  ): Promise<ReplyOf<C>> {
    // Both lists reply ListReply<T>; this only passes T's bytes along.
    return this.read(contract, access, query) as Promise<ReplyOf<C>>;
  }

  private async read(
    contract: ListContract,
    access: AccessRecord,
    query: RawQuery,
  ): Promise<ListReply<unknown>> {
    const ask = (known?: string) =>
      this.register.call(contract, access, {
        query: { ...query },
        ...(known === undefined ? {} : { known }),
      }) as Promise<ListReply<unknown>>;
    if (query.page !== undefined || this.budget === 0) return ask();
    const key = keyOf(contract.pattern, access.workspaceId, query);
    const kept = this.kept.get(key);
    const reply = await ask(kept?.tag);
    if (isListUnchanged(reply)) {
      if (kept && reply.unchanged === kept.tag) {
        this.touch(key, kept);
        return new RawJson(kept.bytes, kept.tag);
      }
      // Unchanged against a copy no longer here (dropped meanwhile): ask for the bytes.
      return this.keep(key, await ask());
    }
    return this.keep(key, reply);
  }

  /** Lists kept now, and their bytes. */
  get size(): { lists: number; bytes: number } {
    return { lists: this.kept.size, bytes: this.keptBytes };
  }

  private keep(key: string, reply: ListReply<unknown>): ListReply<unknown> {
    this.drop(key);
    if (!(reply instanceof RawJson) || reply.tag === undefined) return reply;
    // One list may take at most a quarter of the room, so a few always fit.
    if (reply.bytes.length > this.budget / 4) return reply;
    this.kept.set(key, { tag: reply.tag, bytes: reply.bytes });
    this.keptBytes += reply.bytes.length;
    for (const [oldest, entry] of this.kept) {
      if (this.keptBytes <= this.budget) break;
      this.kept.delete(oldest);
      this.keptBytes -= entry.bytes.length;
    }
    return reply;
  }

  private touch(key: string, kept: Kept): void {
    // A Map iterates in insertion order: re-inserting makes it the most recently used.
    this.kept.delete(key);
    this.kept.set(key, kept);
  }

  private drop(key: string): void {
    const kept = this.kept.get(key);
    if (!kept) return;
    this.kept.delete(key);
    this.keptBytes -= kept.bytes.length;
  }
}

/** The list, the workspace, and the query as sent, whatever the order of its parameters. */
function keyOf(pattern: string, workspaceId: string, query: RawQuery): string {
  const parameters = Object.keys(query)
    .sort()
    .map((name) => [name, query[name]]);
  return JSON.stringify([pattern, workspaceId, parameters]);
}
