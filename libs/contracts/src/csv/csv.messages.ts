import { IsObject, IsOptional, IsString } from 'class-validator';
import { TextLength } from '../fields/text-length';
import { reply, rpc } from '../rpc/contract';
import { LIST } from '../rpc/message-options';
import { CallerMessage } from '../rpc/messages';
import type { RawQuery } from '../shared/paging';

/**
 * One chunk of a CSV export: the list's filters and `columns` as the client sent them, and
 * the cursor of the previous chunk (none for the first).
 */
export class ExportChunkMessage extends CallerMessage {
  @IsObject() query!: RawQuery;
  @IsOptional() @IsString() @TextLength(1, 200) after?: string;
}

/**
 * A chunk's CSV lines (the header line first in the first chunk), and the cursor of the next
 * chunk, null after the last.
 */
export interface ExportChunk {
  csv: string;
  next: string | null;
  /** How many rows this chunk holds. */
  rows: number;
}

/** The exports of the register's API queue (RegisterRpc): heavy reads, one chunk each. */
export const CSV_EXPORT_RPC = {
  assetsExport: rpc('assets.export', ExportChunkMessage, reply<ExportChunk>(), LIST),
  peopleExport: rpc('people.export', ExportChunkMessage, reply<ExportChunk>(), LIST),
};
