import { IsBoolean } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IntField,
  NestedField,
  OpenObjectField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { pageOf } from '../shared/paging';
import {
  IMPORT_PLANS,
  IMPORT_RESULTS,
  IMPORT_STATUSES,
  IMPORT_TYPES,
  type ImportPlan,
  type ImportResult,
  type ImportStatus,
  type ImportType,
} from './import.constants';

@ContractSchema({ name: 'ImportPlanCounts', description: 'What the dry run found, in rows.' })
export class ImportPlanCounts {
  @IntField({ min: 0 }) create!: number;
  @IntField({ min: 0 }) update!: number;
  @IntField({ min: 0 }) refuse!: number;
}

@ContractSchema({ name: 'ImportResultCounts', description: 'What importing did, in rows.' })
export class ImportResultCounts {
  @IntField({ min: 0 }) created!: number;
  @IntField({ min: 0 }) updated!: number;
  @IntField({ min: 0 }) unchanged!: number;
  @IntField({ min: 0 }) refused!: number;
}

@ContractSchema({ name: 'ImportProgress' })
export class ImportProgress {
  @IntField({ min: 0, description: 'Rows planned (planning) or applied (importing) so far.' })
  done!: number;
  @IntField({ min: 0 }) total!: number;
}

/** A CSV import (GET /imports/{id}). */
@ContractSchema({ name: 'Import' })
export class Import {
  @TextField({ pattern: '^imp_' }) id!: string;
  @EnumField(IMPORT_TYPES) type!: ImportType;
  @EnumField(IMPORT_STATUSES) status!: ImportStatus;
  @TextField({ nullable: true, description: 'The file name given, if any.' })
  filename!: string | null;
  @Field({ type: 'boolean' }, [IsBoolean()], {
    description: 'true: it waits after the dry run for POST /imports/{id}/start.',
  })
  dry_run!: boolean;
  @Field({ type: 'array', items: { type: 'string' } }, [], {
    description: "The file's header: the columns, as read.",
  })
  columns!: string[];
  @IntField({ min: 0, description: 'Rows of data (the header aside).' }) rows!: number;
  @NestedField(ImportPlanCounts) plan!: ImportPlanCounts;
  @NestedField(ImportResultCounts) results!: ImportResultCounts;
  @NestedField(ImportProgress, {
    nullable: true,
    description: 'While planning or importing: how far it is; else null.',
  })
  progress!: ImportProgress | null;
  @TextField({ nullable: true, description: 'Why it failed, when it did.' }) error!: string | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
  @TimestampField({ nullable: true }) finished_at!: string | null;
}

export const ImportPage = pageOf(Import, { name: 'ImportPage' });

/** One row of an import: its cells, what the dry run said, and what importing did. */
@ContractSchema({ name: 'ImportRow' })
export class ImportRow {
  @IntField({ min: 1, description: 'Its line among the data rows (the header is row 0).' })
  row!: number;
  @OpenObjectField({ description: 'The cells, by column.' }) data!: Record<string, string>;
  @EnumField(IMPORT_PLANS, { nullable: true, description: 'Null until planned.' })
  plan!: ImportPlan | null;
  @TextField({ nullable: true, description: 'The record it updates (plan update).' })
  target_id!: string | null;
  @EnumField(IMPORT_RESULTS, { nullable: true, description: 'Null until applied.' })
  result!: ImportResult | null;
  @TextField({ nullable: true, description: 'The record it created or updated.' })
  record_id!: string | null;
  @TextField({
    nullable: true,
    description: 'Why it is (or was) refused, naming the column; what matched for an update.',
  })
  message!: string | null;
}

export const ImportRowPage = pageOf(ImportRow, { name: 'ImportRowPage' });
