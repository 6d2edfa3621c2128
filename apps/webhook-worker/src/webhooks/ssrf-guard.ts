import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { boundedResolver, type ResolveAll } from './dns-resolver';
import { forbiddenReason } from './forbidden-address';

export type { ResolveAll } from './dns-resolver';

/** Resolution as at webhook creation: bounded, off the shared thread pool (dns-resolver.ts). */
export const resolveAll: ResolveAll = boundedResolver({ timeoutMs: 2_000 });

/** The code of the error a refused connection fails with. */
export const FORBIDDEN_ADDRESS = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';

/** A connection refused by the SSRF guard: the target is (or resolved to) a forbidden address. */
export class ForbiddenAddressError extends Error {
  readonly code = FORBIDDEN_ADDRESS;
  constructor(host: string, address: string, reason: string) {
    super(
      host === address
        ? `${address} is a forbidden webhook target (${reason})`
        : `${host} resolves to ${address}, a forbidden webhook target (${reason})`,
    );
    this.name = 'ForbiddenAddressError';
  }
}

/**
 * A net.connect `lookup` that resolves the host and fails with ForbiddenAddressError if ANY
 * of its addresses is forbidden; otherwise it hands the vetted addresses to the socket, so the
 * connection goes to an address that was checked (no second, rebindable resolution).
 */
export function guardedLookup(resolve: ResolveAll = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        for (const { address } of found) {
          const reason = forbiddenReason(address);
          if (reason) {
            callback(new ForbiddenAddressError(hostname, address, reason), '', 0);
            return;
          }
        }
        const addresses = family ? found.filter((entry) => entry.family === family) : found;
        const first = addresses[0];
        if (!first) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
          });
          callback(error, '', 0);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * An undici connector that refuses forbidden targets: a literal address is checked here (net
 * does not call `lookup` for one), a name by guardedLookup at every new connection, which
 * defeats DNS rebinding between the check at creation and the delivery.
 */
export function guardedConnector(
  timeoutMs: number,
  resolve: ResolveAll = resolveAll,
): buildConnector.connector {
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(resolve) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const reason = isIP(host) ? forbiddenReason(host) : null;
    if (reason) {
      callback(new ForbiddenAddressError(host, host, reason), null);
      return;
    }
    connect(options, callback);
  };
}
