import type { DeliveryErrorKind } from '@custodian/contracts';
import { sign } from '@custodian/webhook-signature';
import { Logger } from '@nestjs/common';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { forbiddenReason, type ResolveAll } from '../webhooks/target-url';

/** Response bodies kept in the delivery log are cut to this many bytes. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface OutgoingDelivery {
  url: string;
  secret: string;
  deliveryId: string;
  event: string;
  /** The exact bytes sent (and signed). */
  body: string;
}

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: DeliveryErrorKind | null;
  responseBody: string | null;
}

export type Outcome = 'delivered' | 'retry' | 'failed';

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
 * 2xx delivered; network errors, timeouts, 408, 429, 5xx retried; other answers final, and so
 * is a forbidden address (it will not become allowed by waiting).
 */
export function classify(result: Pick<AttemptResult, 'statusCode' | 'error'>): Outcome {
  const status = result.statusCode;
  if (status === null) return result.error === 'forbidden_address' ? 'failed' : 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** The error kind of a request that got no HTTP status. */
export function errorKind(error: unknown, timedOut: boolean): DeliveryErrorKind {
  const codes = [
    (error as { code?: string })?.code,
    (error as { cause?: { code?: string } })?.cause?.code,
  ];
  if (codes.some((code) => code === FORBIDDEN_ADDRESS)) return 'forbidden_address';
  if (timedOut) return 'timeout';
  if (codes.some((code) => code === 'ECONNREFUSED')) return 'connection_refused';
  if (codes.some((code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN')) return 'dns';
  if (
    codes.some(
      (code) =>
        code === 'UND_ERR_CONNECT_TIMEOUT' ||
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_BODY_TIMEOUT' ||
        code === 'ETIMEDOUT',
    )
  ) {
    return 'timeout';
  }
  return 'network';
}

const resolveAll: ResolveAll = (host) => dnsLookup(host, { all: true, verbatim: true });

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

export interface SenderOptions {
  /** Whether loopback and private targets may be reached (dev, tests); false in production. */
  allowPrivate?: boolean;
  /** How names are resolved at connect time when private targets are not allowed. */
  resolve?: ResolveAll;
}

/**
 * POSTs signed deliveries with undici. One overall timeout covers connect, headers and the
 * (capped) body; redirects are not followed (a 3xx is an answer, and final). Unless private
 * targets are allowed, connections to forbidden addresses are refused (`forbidden_address`).
 */
export class WebhookSender {
  private readonly logger = new Logger('WebhookSender');
  private readonly agent: Agent;

  constructor(
    private readonly timeoutMs: number,
    options: SenderOptions = {},
  ) {
    this.agent = new Agent({
      connect: options.allowPrivate
        ? { timeout: timeoutMs }
        : guardedConnector(timeoutMs, options.resolve),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  async send(delivery: OutgoingDelivery): Promise<AttemptResult> {
    const startedAt = new Date();
    const started = performance.now();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const finish = (partial: Omit<AttemptResult, 'startedAt' | 'durationMs'>): AttemptResult => ({
      startedAt,
      durationMs: Math.round(performance.now() - started),
      ...partial,
    });
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Custodian-Webhooks/1.0',
          'x-custodian-event': delivery.event,
          'x-custodian-delivery': delivery.deliveryId,
          'x-custodian-timestamp': String(timestamp),
          'x-custodian-signature': sign(delivery.secret, timestamp, delivery.body),
        },
        body: delivery.body,
      });
      const responseBody = await readCapped(response.body);
      return finish({ statusCode: response.statusCode, error: null, responseBody });
    } catch (error) {
      const kind = errorKind(error, timedOut);
      if (kind === 'forbidden_address') {
        this.logger.warn(
          `delivery ${delivery.deliveryId} to ${delivery.url} refused: ${(error as Error).message}`,
        );
      }
      return finish({ statusCode: null, error: kind, responseBody: null });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** At most RESPONSE_BODY_LIMIT bytes of the body as text; the rest is not read. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT) break;
    }
  } catch {
    // The status is what counts; a body cut short by a reset or the timeout is kept as is.
  } finally {
    body.destroy();
  }
  // Postgres text cannot hold NUL.
  return Buffer.concat(chunks)
    .subarray(0, RESPONSE_BODY_LIMIT)
    .toString('utf8')
    .replaceAll('\u0000', '');
}
