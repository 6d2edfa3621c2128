import { RawJson, isListUnchanged, type ListReply, type Page } from '@custodian/contracts';

/** A list's reply without `page`: the bare array, decoded from its bytes (RawJson). */
export function unpagedArray<T>(reply: ListReply<T>): T[] {
  if (!(reply instanceof RawJson)) {
    throw new Error(`expected the bare array (RawJson), got ${describe(reply)}`);
  }
  return reply.parse();
}

/** A list's reply with `page`: the envelope. */
export function pageOf<T>(reply: ListReply<T>): Page<T> {
  if (reply instanceof RawJson || isListUnchanged(reply)) {
    throw new Error(`expected a page, got ${describe(reply)}`);
  }
  return reply;
}

function describe(reply: unknown): string {
  if (reply instanceof RawJson) return 'the bare array';
  return isListUnchanged(reply) ? `unchanged (${reply.unchanged})` : 'a page';
}
