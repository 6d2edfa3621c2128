import {
  PERSON_CSV_COLUMNS,
  PERSON_STATUSES,
  type CallerContext,
  type ExportChunk,
  type ExportChunkMessage,
} from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';
import { parseListQuery } from '../listing/list-query';
import { ReadTransactions } from '../requests/read-transactions';
import { csvCellSql, exportChunk, isoSql, plainCellSql, type ExportSource } from './csv-export';

const PEOPLE: ExportSource = {
  columns: {
    id: plainCellSql('p.id'),
    full_name: csvCellSql('p.full_name'),
    email: csvCellSql('p.email'),
    employee_number: csvCellSql('p.employee_number'),
    department: csvCellSql('d.name'),
    location: csvCellSql('l.name'),
    location_id: plainCellSql('p.location_id'),
    status: plainCellSql('p.status'),
    created_at: plainCellSql(isoSql('p.created_at')),
    updated_at: plainCellSql(isoSql('p.updated_at')),
  } satisfies Record<(typeof PERSON_CSV_COLUMNS)[number], string>,
  order: PERSON_CSV_COLUMNS,
  from: `register.people p
    LEFT JOIN register.departments d ON d.id = p.department_id
    LEFT JOIN register.locations l ON l.id = p.location_id`,
  alias: 'p',
  parse: (filters) =>
    parseListQuery(filters, PERSON_STATUSES, { location: true, updatedSince: true }),
  customKeys: () => Promise.resolve([]),
};

/** GET /people/export: the workspace's people as CSV, chunk by chunk. */
@Injectable()
export class PersonExports {
  constructor(
    private readonly reads: ReadTransactions,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'EXPORT_CHUNK_ROWS'>,
  ) {}

  chunk(caller: CallerContext, message: ExportChunkMessage): Promise<ExportChunk> {
    return this.reads.heavy((db) =>
      exportChunk(db, caller, message, PEOPLE, this.config.EXPORT_CHUNK_ROWS),
    );
  }
}
