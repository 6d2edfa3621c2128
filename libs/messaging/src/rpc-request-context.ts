import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The RPC request a handler is serving, for code far below the handler that must know it:
 * the write path stores its id in the write's own transaction (so a request the broker hands
 * over twice is applied once) and bounds its SQL by its deadline.
 */
export interface RpcRequestContext {
  /** Unique per request; the same on every redelivery of it. */
  id: string;
  /** Epoch ms after which the caller no longer waits. */
  deadline?: number;
  /**
   * Present when the id comes from the client's Idempotency-Key: what the request asked
   * (method, path, body) as a hash, so the key reused for another request is refused.
   */
  fingerprint?: string;
  /**
   * With an Idempotency-Key: the id the version before derived from it (one per workspace and
   * key, before keys were scoped to the API key or member that sent them), so a client's retry
   * of a request applied under that id just before an upgrade still finds it. Looked up only,
   * never stored; see the gateway's http/idempotency-key.ts for when it goes.
   */
  formerId?: string;
}

const storage = new AsyncLocalStorage<RpcRequestContext>();

/** Runs `work` as the handling of `request`. */
export function runInRpcRequest<T>(request: RpcRequestContext, work: () => T): T {
  return storage.run(request, work);
}

/** The request being served, if this code runs on behalf of one. */
export function currentRpcRequest(): RpcRequestContext | undefined {
  return storage.getStore();
}
