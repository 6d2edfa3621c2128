import {
  DomainError,
  IMPORT_MAX_ROWS,
  type CallerContext,
  type Import,
  type ImportAppendMessage,
  type ImportCreateMessage,
  type ImportListQuery,
  type ImportRow,
  type ImportRowListQuery,
  type ImportStatus,
  type Page,
} from '@custodian/contracts';
import { newId, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { listCustomFields } from '../custom-fields/custom-field.store';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { ImportJobs } from './import-jobs';
import { mapColumns } from './import-rows';
import {
  findImport,
  toImport,
  toImportRow,
  type ImportRecord,
  type ImportRowRecord,
} from './import.store';

/**
 * CSV imports (issue 35): the gateway creates one with the file's header, sends its rows in
 * batches, then seals it; the jobs (ImportJobs) plan every row (the dry run) and, once
 * started, apply them. The API reads its progress, its rows' plans and results.
 */
@Injectable()
export class ImportsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly jobs: ImportJobs,
  ) {}

  async create(caller: CallerContext, message: ImportCreateMessage): Promise<Import> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      // The header is read now: a file whose columns cannot be imported stores nothing.
      mapColumns(message.type, message.columns, await listCustomFields(tx, caller.workspaceId));
      const id = newId('imp');
      await tx.query(
        `INSERT INTO register.imports (id, workspace_id, type, dry_run, filename, columns,
           created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          caller.workspaceId,
          message.type,
          message.dry_run,
          message.filename ?? null,
          message.columns.map((column) => column.trim()),
          JSON.stringify(caller),
        ],
      );
      return toImport(await findImport(tx, caller.workspaceId, id));
    });
  }

  /**
   * Stores rows of an uploading import. Each is padded to the header's width; a row wider
   * than the header is refused naming it. Rows stored already (a retried message) are kept.
   */
  async append(caller: CallerContext, message: ImportAppendMessage): Promise<{ rows: number }> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      const job = await findImport(tx, caller.workspaceId, message.id, true);
      expectStatus(job, ['uploading']);
      const width = job.columns.length;
      const rows = message.rows.map((cells, i) => {
        if (!Array.isArray(cells) || cells.some((cell) => typeof cell !== 'string')) {
          throw new DomainError(
            'invalid_input',
            `row ${message.first_row + i} is not a list of cells`,
          );
        }
        if (cells.length > width) {
          throw new DomainError(
            'invalid_input',
            `row ${message.first_row + i} has ${cells.length} cells, the header ${width}`,
          );
        }
        return [...cells, ...Array<string>(width - cells.length).fill('')];
      });
      const last = message.first_row + rows.length - 1;
      if (last > IMPORT_MAX_ROWS) {
        throw new DomainError(
          'payload_too_large',
          `an import holds at most ${IMPORT_MAX_ROWS} rows`,
        );
      }
      await tx.query(
        `INSERT INTO register.import_rows (import_id, row_number, cells)
         SELECT $1, $2 + r.n - 1, ARRAY(SELECT jsonb_array_elements_text(r.cells))
         FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS r(cells, n)
         ON CONFLICT (import_id, row_number) DO NOTHING`,
        [job.id, message.first_row, JSON.stringify(rows)],
      );
      await tx.query(
        `UPDATE register.imports SET total_rows = greatest(total_rows, $2), updated_at = now()
         WHERE id = $1`,
        [job.id, last],
      );
      return { rows: rows.length };
    });
  }

  /** The upload is whole: `rows` rows, all stored. Its dry run starts. */
  async seal(caller: CallerContext, id: string, rows: number): Promise<Import> {
    const sealed = await this.writes.run(caller.workspaceId, async (tx) => {
      const job = await findImport(tx, caller.workspaceId, id, true);
      expectStatus(job, ['uploading']);
      const [stored] = await queryRows<{ n: number }>(
        tx,
        `SELECT count(*)::int AS n FROM register.import_rows WHERE import_id = $1`,
        [id],
      );
      if (stored?.n !== rows) {
        throw new DomainError(
          'conflict',
          `import ${id} holds ${stored?.n ?? 0} rows, not the ${rows} the upload sent`,
        );
      }
      await tx.query(
        `UPDATE register.imports SET status = 'planning', total_rows = $2, updated_at = now()
         WHERE id = $1`,
        [id, rows],
      );
      return toImport(await findImport(tx, caller.workspaceId, id));
    });
    this.jobs.kick();
    return sealed;
  }

  /** The upload broke off: the import is failed, its rows gone. */
  fail(caller: CallerContext, id: string, reason: string): Promise<Import> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      const job = await findImport(tx, caller.workspaceId, id, true);
      expectStatus(job, ['uploading']);
      await tx.query(`DELETE FROM register.import_rows WHERE import_id = $1`, [id]);
      await tx.query(
        `UPDATE register.imports SET status = 'failed', error = $2, finished_at = now(),
           updated_at = now() WHERE id = $1`,
        [id, reason],
      );
      return toImport(await findImport(tx, caller.workspaceId, id));
    });
  }

  get(caller: CallerContext, id: string): Promise<Import> {
    return this.reads.run(async (db) => toImport(await findImport(db, caller.workspaceId, id)));
  }

  list(caller: CallerContext, query: ImportListQuery): Promise<Page<Import>> {
    const { page, pageSize } = pageParams(query, 50, 200);
    return this.reads.heavy(async (db) => {
      const rows = await queryRows<ImportRecord & { total: number }>(
        db,
        `SELECT *, count(*) OVER ()::int AS total FROM register.imports WHERE workspace_id = $1
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [caller.workspaceId, pageSize, (page - 1) * pageSize],
      );
      return { data: rows.map(toImport), page, pageSize, total: rows[0]?.total ?? 0 };
    });
  }

  rows(caller: CallerContext, id: string, query: ImportRowListQuery): Promise<Page<ImportRow>> {
    const { page, pageSize } = pageParams(query, 50, 200);
    return this.reads.heavy(async (db) => {
      const job = await findImport(db, caller.workspaceId, id);
      const conditions = ['import_id = $1'];
      const params: unknown[] = [id];
      if (query.plan) {
        params.push(query.plan);
        conditions.push(`plan = $${params.length}`);
      }
      if (query.result) {
        params.push(query.result);
        conditions.push(`result = $${params.length}`);
      }
      const where = conditions.join(' AND ');
      const [counted] = await queryRows<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM register.import_rows WHERE ${where}`,
        params,
      );
      const rows = await queryRows<ImportRowRecord>(
        db,
        `SELECT * FROM register.import_rows WHERE ${where}
         ORDER BY row_number LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
        params,
      );
      return {
        data: rows.map((row) => toImportRow(job.columns, row)),
        page,
        pageSize,
        total: counted?.n ?? 0,
      };
    });
  }

  /** A dry run's go: its rows are applied (202 at the gateway; the jobs do it). */
  async start(caller: CallerContext, id: string): Promise<Import> {
    const started = await this.changeStatus(caller, id, ['planned'], 'importing');
    this.jobs.kick();
    return started;
  }

  /** Stops an import where it is: rows applied so far stay, the others never are. */
  cancel(caller: CallerContext, id: string): Promise<Import> {
    return this.changeStatus(
      caller,
      id,
      ['uploading', 'planning', 'planned', 'importing'],
      'cancelled',
    );
  }

  private changeStatus(
    caller: CallerContext,
    id: string,
    from: readonly ImportStatus[],
    to: ImportStatus,
  ): Promise<Import> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      // Waits for a job's step on it to commit: the status it leaves is the one checked.
      const job = await findImport(tx, caller.workspaceId, id, true);
      expectStatus(job, from);
      await tx.query(
        `UPDATE register.imports SET status = $2, updated_at = now(),
           finished_at = CASE WHEN $2 = 'cancelled' THEN now() ELSE finished_at END
         WHERE id = $1`,
        [id, to],
      );
      return toImport(await findImport(tx, caller.workspaceId, id));
    });
  }
}

function expectStatus(job: ImportRecord, allowed: readonly ImportStatus[]): void {
  if (!allowed.includes(job.status)) {
    throw new DomainError(
      'conflict',
      `import ${job.id} is ${job.status}; this needs it ${allowed.join(' or ')}`,
    );
  }
}
