import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { TextLength } from '../fields/text-length';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  IMPORT_APPEND_ROWS,
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_TYPES,
  type ImportType,
} from './import.constants';
import { ImportListQuery, ImportRowListQuery } from './import.inputs';
import type { Import, ImportRow } from './import.views';

/** A new import, its header read: rows follow (ImportAppendMessage), then the seal. */
export class ImportCreateMessage extends CallerMessage {
  @IsIn(IMPORT_TYPES) type!: ImportType;
  @IsBoolean() dry_run!: boolean;
  @IsOptional() @IsString() @TextLength(1, 200) filename?: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(IMPORT_MAX_COLUMNS)
  @IsString({ each: true })
  @TextLength(0, 200, { each: true })
  columns!: string[];
}

/** Rows of an uploading import, in file order from `first_row` (1 is the first data row). */
export class ImportAppendMessage extends RecordMessage {
  @IsInt() @Min(1) @Max(IMPORT_MAX_ROWS) first_row!: number;
  /** Each row's cells, in the header's order (checked by the register). */
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(IMPORT_APPEND_ROWS) rows!: string[][];
}

/** The upload ended: `rows` data rows in all. Planning starts. */
export class ImportSealMessage extends RecordMessage {
  @IsInt() @Min(0) @Max(IMPORT_MAX_ROWS) rows!: number;
}

/** The upload broke off: the import is marked failed with the reason. */
export class ImportFailMessage extends RecordMessage {
  @IsString() @TextLength(1, 500) reason!: string;
}

export class ImportRowsMessage extends RecordMessage {
  @ValidateNested() @Type(() => ImportRowListQuery) query!: ImportRowListQuery;
}

export class ImportListMessage extends CallerMessage {
  @ValidateNested() @Type(() => ImportListQuery) query!: ImportListQuery;
}

/** The imports of the register's API queue (RegisterRpc). */
export const IMPORT_RPC = {
  importsCreate: rpc('imports.create', ImportCreateMessage, reply<Import>()),
  importsAppend: rpc('imports.append', ImportAppendMessage, reply<{ rows: number }>()),
  importsSeal: rpc('imports.seal', ImportSealMessage, reply<Import>()),
  importsFail: rpc('imports.fail', ImportFailMessage, reply<Import>()),
  importsGet: rpc('imports.get', RecordMessage, reply<Import>(), READ),
  importsList: rpc('imports.list', ImportListMessage, reply<Page<Import>>(), LIST),
  importsRows: rpc('imports.rows', ImportRowsMessage, reply<Page<ImportRow>>(), LIST),
  importsStart: rpc('imports.start', RecordMessage, reply<Import>()),
  importsCancel: rpc('imports.cancel', RecordMessage, reply<Import>()),
};
