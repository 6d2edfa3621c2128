/**
 * One message of an RPC queue: its pattern, the class its request is validated against by the
 * consumer's pipe, and the type of its reply (compile-time only). Producers and consumers take
 * both types from here, so a wrong field fails to compile at either end.
 */
export interface RpcContract<Req extends object = object, Res = unknown> {
  readonly pattern: string;
  readonly request: new () => Req;
  /**
   * The message only reads: running it again changes nothing, so a caller that got no answer
   * in time can say "retry" (503) rather than "outcome unknown" (504).
   */
  readonly readOnly?: boolean;
  /**
   * Its cost grows with the data (a list, a search) or is high by design (a password hash):
   * sent on the queue's heavy lane (heavyLaneOf), so a crowd of them never stands in the queue
   * ahead of cheap messages.
   */
  readonly heavy?: boolean;
  /**
   * How long the caller waits for it, when not its client's usual timeout: a write whose
   * work grows with its input (a bulk change of 1,000 assets).
   */
  readonly timeoutMs?: number;
  /** Never set: it carries the reply type. */
  readonly reply?: Res;
}

/** The reply type of a contract, written `reply<AssetDetail>()`. */
export interface Reply<Res> {
  readonly type?: Res;
}

export function reply<Res>(): Reply<Res> {
  return {};
}

export function rpc<Req extends object, Res>(
  pattern: string,
  request: new () => Req,
  _reply: Reply<Res>,
  options: { readOnly?: boolean; heavy?: boolean; timeoutMs?: number } = {},
): RpcContract<Req, Res> {
  return { pattern, request, ...options };
}

export type RequestOf<C> = C extends RpcContract<infer Req, unknown> ? Req : never;
export type ReplyOf<C> = C extends RpcContract<object, infer Res> ? Res : never;

/** The contracts of one queue, by name. */
export type RpcContracts = Record<string, RpcContract>;

/** `{name: pattern}` of a queue's contracts, for callers that only name the message. */
export function patternsOf<M extends RpcContracts>(contracts: M): { [K in keyof M]: string } {
  return Object.fromEntries(
    Object.entries(contracts).map(([name, contract]) => [name, contract.pattern]),
  ) as { [K in keyof M]: string };
}
