import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** register.imports: CSV imports and their counters (migration CreateImports). */
@Entity({ schema: 'register', name: 'imports' })
@Check('imports_type_check', `type IN ('assets', 'people')`)
@Check(
  'imports_status_check',
  `status IN ('uploading', 'planning', 'planned', 'importing', 'completed', 'cancelled', 'failed')`,
)
@Index('imports_workspace_created', ['workspace_id', 'created_at', 'id'])
@Index('imports_pending_jobs', ['updated_at'], { where: `status IN ('planning', 'importing')` })
export class ImportEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'imports_pkey' }) id!: string;
  @Column({ type: 'text' }) workspace_id!: string;
  @Column({ type: 'text' }) type!: string;
  @Column({ type: 'text', default: 'uploading' }) status!: string;
  @Column({ type: 'boolean' }) dry_run!: boolean;
  @Column({ type: 'text', nullable: true }) filename!: string | null;
  @Column({ type: 'text', array: true }) columns!: string[];
  @Column({ type: 'integer', default: 0 }) total_rows!: number;
  @Column({ type: 'integer', default: 0 }) planned_rows!: number;
  @Column({ type: 'integer', default: 0 }) plan_create!: number;
  @Column({ type: 'integer', default: 0 }) plan_update!: number;
  @Column({ type: 'integer', default: 0 }) plan_refuse!: number;
  @Column({ type: 'integer', default: 0 }) done_rows!: number;
  @Column({ type: 'integer', default: 0 }) created_count!: number;
  @Column({ type: 'integer', default: 0 }) updated_count!: number;
  @Column({ type: 'integer', default: 0 }) unchanged_count!: number;
  @Column({ type: 'integer', default: 0 }) refused_count!: number;
  /** The caller who uploaded it: the rows are written as theirs. */
  @Column({ type: 'jsonb' }) created_by!: Record<string, unknown>;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) created_at!: Date;
  @Column({ type: 'timestamptz', default: () => 'now()' }) updated_at!: Date;
  @Column({ type: 'timestamptz', nullable: true }) finished_at!: Date | null;
}

/** register.import_rows: one data row of a file, its plan and its result. */
@Entity({ schema: 'register', name: 'import_rows' })
@Check('import_rows_plan_check', `plan IN ('create', 'update', 'refuse')`)
@Check('import_rows_result_check', `result IN ('created', 'updated', 'unchanged', 'refused')`)
@Index('import_rows_unplanned', ['import_id', 'row_number'], { where: 'plan IS NULL' })
@Index('import_rows_undone', ['import_id', 'row_number'], { where: 'NOT done' })
@Index('import_rows_match_key', ['import_id', 'match_key', 'row_number'], {
  where: 'match_key IS NOT NULL',
})
export class ImportRowEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'import_rows_pkey' })
  @ForeignKey(() => ImportEntity, { name: 'import_rows_import_id_fkey', onDelete: 'CASCADE' })
  import_id!: string;
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'import_rows_pkey' })
  row_number!: number;
  @Column({ type: 'text', array: true }) cells!: string[];
  @Column({ type: 'text', nullable: true }) match_key!: string | null;
  @Column({ type: 'text', nullable: true }) plan!: string | null;
  @Column({ type: 'text', nullable: true }) target_id!: string | null;
  @Column({ type: 'text', nullable: true }) message!: string | null;
  @Column({ type: 'text', nullable: true }) result!: string | null;
  @Column({ type: 'text', nullable: true }) record_id!: string | null;
  @Column({ type: 'boolean', default: false }) done!: boolean;
}
