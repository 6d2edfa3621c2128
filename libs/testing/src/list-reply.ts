import { RawJson, type ListReply, type Page } from '@custodian/contracts';

/** A list's reply without `page`: the bare array, decoded from its bytes (RawJson). */
export function unpagedArray<T>(reply: ListReply<T>): T[] {
  if (!(reply instanceof RawJson)) throw new Error('expected the bare array (RawJson), got a page');
  return reply.parse();
}

/** A list's reply with `page`: the envelope. */
export function pageOf<T>(reply: ListReply<T>): Page<T> {
  if (reply instanceof RawJson) throw new Error('expected a page, got the bare array');
  return reply;
}
