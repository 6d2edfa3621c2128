import type { DeliveryErrorKind } from '@custodian/contracts';
import type { SecretCipher } from '@custodian/secret-cipher';
import { signatureHeader } from '@custodian/webhook-signature';
import { Logger } from '@nestjs/common';
import { Agent, request } from 'undici';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { recordedResponseHeaders } from './recorded-headers';
import { FORBIDDEN_ADDRESS, guardedConnector, type ResolveAll } from '../webhooks/ssrf-guard';

/** Response bodies kept in the delivery log are cut to this many bytes. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface OutgoingDelivery {
  url: string;
  /** The endpoint's signing secret as stored (encrypted); the sender decrypts it to sign. */
  secret: string;
  /** During a rotation's overlap, the previous secret (encrypted): it signs too. */
  previousSecret?: string | null;
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
  /** The headers sent (null when nothing was: the secret did not decrypt). */
  requestHeaders: Record<string, string> | null;
  /** The receiver's headers, sensitive ones hidden (null when no answer came). */
  responseHeaders: Record<string, string> | null;
}

export type Outcome = 'delivered' | 'retry' | 'failed';

/**
 * 2xx delivered; network errors, timeouts, 408, 429, 5xx retried; other answers final, and so
 * is a forbidden address (it will not become allowed by waiting). A secret that does not
 * decrypt is retried: the key that encrypted it may be listed again (a rollout that gave some
 * workers a new key before others).
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
  if (codes.some((code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEOUT')) {
    return 'dns';
  }
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

export interface SenderOptions {
  /** Whether loopback and private targets may be reached (dev, tests); false in production. */
  allowPrivate?: boolean;
  /** How names are resolved at connect time when private targets are not allowed. */
  resolve?: ResolveAll;
  /** Decrypts the stored secrets; by default the cipher of the worker's WEBHOOK_SECRET_KEYS. */
  cipher?: SecretCipher;
}

/**
 * POSTs signed deliveries with undici. One overall timeout covers connect, headers and the
 * (capped) body; redirects are not followed (a 3xx is an answer, and final). Unless private
 * targets are allowed, connections to forbidden addresses are refused (`forbidden_address`).
 */
export class WebhookSender {
  private readonly logger = new Logger('WebhookSender');
  private readonly agent: Agent;
  private readonly cipher: SecretCipher;

  constructor(
    private readonly timeoutMs: number,
    options: SenderOptions = {},
  ) {
    this.cipher = options.cipher ?? signingSecretCipher();
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
    const secrets: string[] = [];
    try {
      secrets.push(this.cipher.decrypt(delivery.secret));
      if (delivery.previousSecret) secrets.push(this.cipher.decrypt(delivery.previousSecret));
    } catch (error) {
      // Never sent unsigned, nor signed with something else.
      this.logger.error(
        `delivery ${delivery.deliveryId} to ${delivery.url} not sent: ${(error as Error).message}`,
      );
      return {
        startedAt,
        durationMs: 0,
        statusCode: null,
        error: 'secret_unreadable',
        responseBody: null,
        requestHeaders: null,
        responseHeaders: null,
      };
    }
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    // Every signature (the previous secret's too, during an overlap) is in the log: none
    // proves anything without its secret.
    const requestHeaders: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Custodian-Webhooks/1.0',
      'x-custodian-event': delivery.event,
      'x-custodian-delivery': delivery.deliveryId,
      'x-custodian-timestamp': String(timestamp),
      'x-custodian-signature': signatureHeader(secrets, timestamp, delivery.body),
    };
    const finish = (
      partial: Pick<AttemptResult, 'statusCode' | 'error' | 'responseBody' | 'responseHeaders'>,
    ): AttemptResult => ({
      startedAt,
      durationMs: Math.round(performance.now() - started),
      requestHeaders,
      ...partial,
    });
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: controller.signal,
        headers: requestHeaders,
        body: delivery.body,
      });
      const responseBody = await readCapped(response.body);
      return finish({
        statusCode: response.statusCode,
        error: null,
        responseBody,
        responseHeaders: recordedResponseHeaders(response.headers),
      });
    } catch (error) {
      const kind = errorKind(error, timedOut);
      if (kind === 'forbidden_address') {
        this.logger.warn(
          `delivery ${delivery.deliveryId} to ${delivery.url} refused: ${(error as Error).message}`,
        );
      }
      return finish({ statusCode: null, error: kind, responseBody: null, responseHeaders: null });
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
