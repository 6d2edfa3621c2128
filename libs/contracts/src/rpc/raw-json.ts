/**
 * A reply that is already JSON: its UTF-8 bytes, made once by the handler, carried as they are
 * as the RPC message body (libs/messaging) and written as they are to an HTTP response (the
 * gateway), never parsed and serialised again on the way. `T` is what the bytes decode to, so
 * a contract's reply type stays honest: `reply<RawJson<AssetSummary[]> | Page<AssetSummary>>()`.
 *
 * It lives beside RpcContract rather than in libs/messaging because contracts name it in their
 * reply types, and this library depends on no other.
 */
export class RawJson<T = unknown> {
  /** Never set: it carries the decoded type, as RpcContract.reply does. */
  declare readonly type?: T;

  /**
   * `bytes` must be one JSON text in UTF-8; nothing checks it here (that would parse it).
   * `tag`, when the handler gives one, names this content: a later request that quotes it may
   * be answered that it is still current instead of with the bytes again (ListUnchanged).
   */
  constructor(
    readonly bytes: Buffer,
    readonly tag?: string,
  ) {}

  /** Decodes it, for callers that need the value (tests, tools); the hot paths never do. */
  parse(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }

  /**
   * Serialising it again is the copy it exists to avoid, and JSON.stringify would otherwise
   * write its Buffer as `{"type":"Buffer","data":[...]}`: fail loudly instead.
   */
  toJSON(): never {
    throw new Error('RawJson is sent as its bytes, never serialised again');
  }
}
