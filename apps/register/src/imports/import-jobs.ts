import {
  DomainError,
  type CallerContext,
  type CreateAssetInput,
  type CreatePersonInput,
  type ImportResult,
} from '@custodian/contracts';
import { runWithRequestId } from '@custodian/observability';
import { SteppedJob, queryRows } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { findAssetRow, toDetail } from '../assets/asset.store';
import { AssetsService } from '../assets/assets.service';
import { RegisterConfig } from '../config/register-config';
import { listCustomFields } from '../custom-fields/custom-field.store';
import { PeopleService } from '../people/people.service';
import { matchKeyOf, planRows, recordsMatching } from './import-planner';
import { changedFields, fieldProblem, mapColumns, rowValues, type ColumnMap } from './import-rows';
import { claimImportJob, type ImportRecord, type ImportRowRecord } from './import.store';

export type ImportJobsConfig = Pick<
  RegisterConfig,
  | 'IMPORT_PLAN_BATCH_SIZE'
  | 'IMPORT_WRITE_BATCH_SIZE'
  | 'IMPORT_JOBS_POLL_MS'
  | 'IMPORT_JOB_STATEMENT_TIMEOUT_MS'
>;

/** What one step of the jobs did. */
export type ImportStep = 'planned' | 'imported' | 'finished' | 'idle';

interface Outcome {
  row_number: number;
  result: ImportResult;
  record_id: string | null;
  message: string | null;
}

/**
 * The imports' background work, as the audits' (ADR 0020's claim pattern): a step claims one
 * import with work (FOR UPDATE SKIP LOCKED: replicas take different ones) and commits what it
 * did with the import's counters.
 *
 * - Planning (the dry run): IMPORT_PLAN_BATCH_SIZE rows per step get their plan (planRows);
 *   the last step leaves the import `planned` (a dry run waits for its start) or `importing`.
 * - Importing: IMPORT_WRITE_BATCH_SIZE rows per step, in file order, each in a savepoint of
 *   the step's transaction and written by the services' own createIn and updateIn (the same
 *   rules, events and feed entries as the API's, the import named as the entries' related
 *   record and as the events' request id). A row is matched again against what the workspace
 *   holds now: the dry run's plan is what it was then. A row the rules refuse is rolled back
 *   to its savepoint and marked refused with their message; the others commit with their
 *   `done` mark in one transaction, so a crash mid-step rolls the step back whole and the next
 *   does it again: no row twice, none lost.
 */
@Injectable()
export class ImportJobs
  extends SteppedJob<Exclude<ImportStep, 'idle'>>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly db: DataSource,
    private readonly assets: AssetsService,
    private readonly people: PeopleService,
    @Inject(RegisterConfig) private readonly config: ImportJobsConfig,
  ) {
    const logger = new Logger('ImportJobs');
    super(config.IMPORT_JOBS_POLL_MS, (message) => logger.warn(message), 0);
  }

  step(): Promise<ImportStep> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('statement_timeout', $1, true)`, [
        String(this.config.IMPORT_JOB_STATEMENT_TIMEOUT_MS),
      ]);
      const job = await claimImportJob(tx);
      if (!job) return 'idle';
      let map: ColumnMap;
      try {
        map = mapColumns(job.type, job.columns, await listCustomFields(tx, job.workspace_id));
      } catch (error) {
        // A custom field of the header was deleted since the upload.
        if (!(error instanceof DomainError)) throw error;
        await tx.query(
          `UPDATE register.imports SET status = 'failed', error = $2, finished_at = now(),
             updated_at = now() WHERE id = $1`,
          [job.id, error.message],
        );
        return 'finished';
      }
      const caller = job.created_by as unknown as CallerContext;
      return runWithRequestId(job.id, () =>
        job.status === 'planning'
          ? this.planBatch(tx, job, caller, map)
          : this.importBatch(tx, job, caller, map),
      );
    });
  }

  protected label(): string {
    return 'Import jobs';
  }

  private async planBatch(
    tx: EntityManager,
    job: ImportRecord,
    caller: CallerContext,
    map: ColumnMap,
  ): Promise<ImportStep> {
    const size = this.config.IMPORT_PLAN_BATCH_SIZE;
    const rows = await queryRows<ImportRowRecord>(
      tx,
      `SELECT * FROM register.import_rows WHERE import_id = $1 AND plan IS NULL
       ORDER BY row_number LIMIT ${size}`,
      [job.id],
    );
    const [counters] = await queryRows<{ count: number }>(
      tx,
      `SELECT ${job.type === 'assets' ? 'asset_count' : 'person_count'} AS count
       FROM register.workspace_counters WHERE workspace_id = $1`,
      [job.workspace_id],
    );
    const decisions = await planRows(
      tx,
      job.id,
      caller,
      map,
      rows,
      job.plan_create,
      counters?.count ?? 0,
    );
    if (rows.length > 0) {
      await tx.query(
        `UPDATE register.import_rows r SET plan = d.plan, target_id = d.target_id,
           message = d.message, match_key = d.match_key
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])
           AS d(row_number, plan, target_id, message, match_key)
         WHERE r.import_id = $1 AND r.row_number = d.row_number`,
        [
          job.id,
          rows.map((row) => row.row_number),
          decisions.map((d) => d.plan),
          decisions.map((d) => d.target_id),
          decisions.map((d) => d.message),
          decisions.map((d) => d.match_key),
        ],
      );
    }
    const count = (plan: string) => decisions.filter((d) => d.plan === plan).length;
    const last = rows.length < size;
    await tx.query(
      `UPDATE register.imports SET planned_rows = planned_rows + $2,
         plan_create = plan_create + $3, plan_update = plan_update + $4,
         plan_refuse = plan_refuse + $5,
         status = CASE WHEN $6 THEN (CASE WHEN dry_run THEN 'planned' ELSE 'importing' END)
                       ELSE status END,
         updated_at = now() WHERE id = $1`,
      [job.id, rows.length, count('create'), count('update'), count('refuse'), last],
    );
    return 'planned';
  }

  private async importBatch(
    tx: EntityManager,
    job: ImportRecord,
    caller: CallerContext,
    map: ColumnMap,
  ): Promise<ImportStep> {
    const size = this.config.IMPORT_WRITE_BATCH_SIZE;
    const rows = await queryRows<ImportRowRecord>(
      tx,
      `SELECT * FROM register.import_rows WHERE import_id = $1 AND NOT done
       ORDER BY row_number LIMIT ${size}`,
      [job.id],
    );
    const origin = { id: job.id, name: job.filename ?? 'CSV import' };
    const outcomes: Outcome[] = [];
    for (const row of rows) {
      await tx.query('SAVEPOINT import_row');
      try {
        const outcome = await this.apply(tx, job, caller, map, row, origin);
        await tx.query('RELEASE SAVEPOINT import_row');
        outcomes.push(outcome);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await tx.query('ROLLBACK TO SAVEPOINT import_row');
        outcomes.push({
          row_number: row.row_number,
          result: 'refused',
          record_id: null,
          message: error.message,
        });
      }
    }
    if (outcomes.length > 0) {
      await tx.query(
        `UPDATE register.import_rows r SET done = true, result = o.result,
           record_id = o.record_id, message = coalesce(o.message, r.message)
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])
           AS o(row_number, result, record_id, message)
         WHERE r.import_id = $1 AND r.row_number = o.row_number`,
        [
          job.id,
          outcomes.map((o) => o.row_number),
          outcomes.map((o) => o.result),
          outcomes.map((o) => o.record_id),
          outcomes.map((o) => o.message),
        ],
      );
    }
    const count = (result: ImportResult) => outcomes.filter((o) => o.result === result).length;
    const last = rows.length < size;
    await tx.query(
      `UPDATE register.imports SET done_rows = done_rows + $2,
         created_count = created_count + $3, updated_count = updated_count + $4,
         unchanged_count = unchanged_count + $5, refused_count = refused_count + $6,
         status = CASE WHEN $7 THEN 'completed' ELSE status END,
         finished_at = CASE WHEN $7 THEN now() ELSE finished_at END,
         updated_at = now() WHERE id = $1`,
      [
        job.id,
        outcomes.length,
        count('created'),
        count('updated'),
        count('unchanged'),
        count('refused'),
        last,
      ],
    );
    return last ? 'finished' : 'imported';
  }

  /** One row: refused as planned, or matched again and created, changed or left. */
  private async apply(
    tx: EntityManager,
    job: ImportRecord,
    caller: CallerContext,
    map: ColumnMap,
    row: ImportRowRecord,
    origin: { id: string; name: string },
  ): Promise<Outcome> {
    const done = (result: ImportResult, record_id: string | null, message: string | null) => ({
      row_number: row.row_number,
      result,
      record_id,
      message,
    });
    if (row.plan === 'refuse') return done('refused', null, row.message);
    const values = rowValues(map, row.cells);
    const key = matchKeyOf(job.type, values);
    const ids = key
      ? ((await recordsMatching(tx, job.type, job.workspace_id, [key])).get(
          `${key.field}:${key.value}`,
        ) ?? [])
      : [];
    if (ids.length > 1 && key) {
      throw new DomainError(
        'conflict',
        `${ids.length} ${job.type} have the ${key.field} ${key.value}`,
      );
    }
    const [id] = ids;
    // Checked again: the plan was made against what the workspace held then.
    const problem = fieldProblem(job.type, values.fields, id === undefined);
    if (problem) throw new DomainError('invalid_input', problem);
    if (id === undefined && key?.field === 'id') {
      throw new DomainError('not_found', `id ${key.value} is no longer in this workspace`);
    }
    if (id !== undefined) {
      const current =
        job.type === 'assets'
          ? toDetail(await findAssetRow(tx, job.workspace_id, id))
          : await this.people.detail(tx, job.workspace_id, id);
      const changes = changedFields(job.type, values.fields, current);
      if (Object.keys(changes).length === 0) return done('unchanged', id, row.message);
      if (job.type === 'assets') {
        await this.assets.updateIn(tx, caller, id, changes, origin);
      } else {
        await this.people.updateIn(tx, caller, id, changes, undefined, origin);
      }
      return done('updated', id, row.message);
    }
    const created =
      job.type === 'assets'
        ? await this.assets.createIn(
            tx,
            caller,
            values.fields as unknown as CreateAssetInput,
            origin,
          )
        : await this.people.createIn(
            tx,
            caller,
            values.fields as unknown as CreatePersonInput,
            origin,
          );
    return done('created', created.id, null);
  }
}
