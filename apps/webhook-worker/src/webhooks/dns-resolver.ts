import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** How names are resolved: every address of the host. */
export type ResolveAll = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface BoundedResolverOptions {
  /** The most one resolution may take, waiting for a turn included. */
  timeoutMs: number;
  /** Resolutions in flight at once; the rest wait their turn (within their timeout). */
  concurrency?: number;
  /** Name servers (`host[:port]`) instead of the system's (tests). */
  servers?: string[];
}

/** A name whose resolution failed, with the code errorKind reads (`ENOTFOUND`, `ETIMEOUT`). */
function dnsError(host: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`resolving ${host} failed: ${code}`), { code });
}

/**
 * Resolves names with c-ares (its own sockets), not getaddrinfo: getaddrinfo runs on libuv's
 * four shared threads with no timeout of its own, so a few names whose DNS stops answering
 * would hold them (and the file system and crypto work queued behind them) past any attempt
 * timeout. Here each resolution has a deadline and at most `concurrency` are in flight. A and
 * AAAA are asked for together; the name resolves if either answers.
 *
 * It reads no hosts file: it serves public webhook targets, and a name only the hosts file
 * knows fails to resolve (so is not reached). `localhost` and its subdomains are loopback by
 * definition (RFC 6761), answered here without a query, so the guard refuses them as such.
 */
export function boundedResolver(options: BoundedResolverOptions): ResolveAll {
  // One try per server: the deadline below is the overall bound, c-ares's own retries (with
  // growing timeouts) would only outlast it.
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
  if (options.servers) resolver.setServers(options.servers);
  const limit = options.concurrency ?? 64;
  let running = 0;
  const queue: Array<() => void> = [];
  const acquire = async () => {
    if (running < limit) {
      running++;
      return;
    }
    // The slot is handed over by release(), still counted: no caller can slip in between.
    await new Promise<void>((turn) => queue.push(turn));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };

  return async (host) => {
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family }];
    if (/(^|\.)localhost\.?$/i.test(host)) {
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    }
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(dnsError(host, 'ETIMEOUT'));
      }, options.timeoutMs);
    });
    const resolve = async () => {
      await acquire();
      try {
        if (timedOut) throw dnsError(host, 'ETIMEOUT');
        const [v4, v6] = await bothFamilies(resolver, host);
        const found = [
          ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
          ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
        ];
        if (found.length > 0) return found;
        const codes = [v4, v6].map((each) =>
          each.status === 'rejected' ? (each.reason as NodeJS.ErrnoException).code : undefined,
        );
        throw dnsError(host, codes.includes('ETIMEOUT') ? 'ETIMEOUT' : 'ENOTFOUND');
      } finally {
        release();
      }
    };
    try {
      return await Promise.race([resolve(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** How long the other family may still take once one has answered with addresses. */
const OTHER_FAMILY_GRACE_MS = 150;

type Lookup = PromiseSettledResult<string[]>;

/**
 * A and AAAA together; once one has answered with addresses, the other gets a short grace,
 * not the whole deadline: a name server that never answers AAAA (there are such) must not
 * fail a host whose A record came back at once.
 */
async function bothFamilies(resolver: Resolver, host: string): Promise<[Lookup, Lookup]> {
  const pending: Lookup = { status: 'rejected', reason: dnsError(host, 'ETIMEOUT') };
  const results: [Lookup, Lookup] = [pending, pending];
  const lookups = [resolver.resolve4(host), resolver.resolve6(host)].map((lookup, i) =>
    lookup.then(
      (value) => (results[i] = { status: 'fulfilled', value }),
      (reason: unknown) => (results[i] = { status: 'rejected', reason }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  // Settles once both have, or OTHER_FAMILY_GRACE_MS after the first with addresses.
  const graceAfterFirst = new Promise<void>((done) => {
    for (const lookup of lookups) {
      void lookup.then((result) => {
        if (result.status === 'fulfilled' && result.value.length > 0 && timer === undefined) {
          timer = setTimeout(done, OTHER_FAMILY_GRACE_MS);
        }
      });
    }
  });
  await Promise.race([Promise.all(lookups), graceAfterFirst]);
  clearTimeout(timer);
  return results;
}
