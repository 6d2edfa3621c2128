import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString } from 'class-validator';
import { TextLength } from '../fields/text-length';
import {
  IsCallerContext,
  hasExactly,
  isCallerContext,
  isRecord,
  type CallerContext,
} from '../shared/caller-context';
import type { Page, RawQuery } from '../shared/paging';
import { RawJson } from './raw-json';

/**
 * The property of a message that carries the client's JSON body. The consumer's validation
 * pipe names fields relative to it (`name must be a string`, not `body.name ...`), as the
 * client wrote them.
 */
export const CLIENT_BODY = 'body';

/**
 * A message class may also say, in plain code, that a value is a valid message of it
 * (`static accepts`, its own, not inherited). The reads of the register's queue do: they come
 * at thousands a second, and class-transformer plus class-validator cost them about a tenth of
 * the register's CPU in the reads benchmark. ContractValidationPipe passes what `accepts`
 * and still runs the decorators on the rest, which also words the refusal.
 */
export interface AcceptsInPlainCode {
  accepts(value: unknown): boolean;
}

/** Every message on the register's API queue: the caller the gateway resolved. */
export class CallerMessage {
  @IsCallerContext() caller!: CallerContext;

  static accepts(value: unknown): boolean {
    return isRecord(value) && hasExactly(value, ['caller']) && isCallerContext(value.caller);
  }
}

/** A message about one record of the caller's workspace, by id. */
export class RecordMessage extends CallerMessage {
  @IsString() id!: string;

  static override accepts(value: unknown): boolean {
    return (
      isRecord(value) &&
      hasExactly(value, ['caller', 'id']) &&
      typeof value.id === 'string' &&
      isCallerContext(value.caller)
    );
  }
}

/**
 * A change to one record that may carry the client's If-Match (issue 35): the entity tags it
 * read (`*` for any), which the owning service checks against the record under its row lock,
 * refusing with `precondition_failed` (412) when another write came first.
 */
export class ConditionalRecordMessage extends RecordMessage {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @TextLength(1, 110, { each: true })
  if_match?: string[];
}

/** The longest tag a bare array's bytes carry (RawJson.tag, ListMessage.known). */
export const LIST_TAG_MAX = 100;

/** A list route's query strings as the client sent them; the register parses them. */
export class ListMessage extends CallerMessage {
  @IsObject() query!: RawQuery;

  /**
   * The tag of the bare array's bytes the caller holds (RawJson.tag): when they are still
   * current, the reply is ListUnchanged instead of the bytes. Ignored for a page.
   */
  @IsOptional() @IsString() @TextLength(1, LIST_TAG_MAX) known?: string;

  static override accepts(value: unknown): boolean {
    return (
      isRecord(value) &&
      (hasExactly(value, ['caller', 'query']) ||
        (hasExactly(value, ['caller', 'query', 'known']) &&
          typeof value.known === 'string' &&
          value.known.length <= LIST_TAG_MAX)) &&
      isRecord(value.query) &&
      isCallerContext(value.caller)
    );
  }
}

/**
 * The reply to a list request that quoted the tag of bytes still current (ListMessage.known):
 * the caller may answer its copy (ADR 0014, "The unpaged array").
 */
export interface ListUnchanged {
  unchanged: string;
}

/**
 * A list's reply: the page with `page`, else the bare array as its JSON bytes, made once in the
 * register and passed through by the gateway as they are, tagged with what they show; or,
 * to a request that quoted a tag still current, ListUnchanged (ADR 0014, "The unpaged array").
 */
export type ListReply<T> = Page<T> | RawJson<T[]> | ListUnchanged;

/** True when a list's reply says the caller's copy is still current. */
export function isListUnchanged(reply: unknown): reply is ListUnchanged {
  return (
    typeof reply === 'object' &&
    reply !== null &&
    !(reply instanceof RawJson) &&
    typeof (reply as Partial<ListUnchanged>).unchanged === 'string'
  );
}

/**
 * The console's messages on the worker's admin queue (WorkerConsoleRpc): the gateway sets
 * `workspace` to the signed-in member's workspace, and every lookup is scoped to it.
 */
export class ConsoleWorkspaceMessage {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** One endpoint or delivery of the workspace, by id. */
export class ConsoleRecordMessage extends ConsoleWorkspaceMessage {
  @IsString() @TextLength(1, 64) id!: string;
}
