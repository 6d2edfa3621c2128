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
import { exportChunk, isoSql, type ExportSource } from './csv-export';

type PersonCsvRow = Record<(typeof PERSON_CSV_COLUMNS)[number], string | null> & {
  cursor_at: string;
};

const PEOPLE: ExportSource<PersonCsvRow> = {
  select: `p.id, p.full_name, p.email, p.employee_number, d.name AS department,
    l.name AS location, p.location_id, p.status, ${isoSql('p.created_at')} AS created_at,
    ${isoSql('p.updated_at')} AS updated_at`,
  from: `register.people p
    LEFT JOIN register.departments d ON d.id = p.department_id
    LEFT JOIN register.locations l ON l.id = p.location_id`,
  alias: 'p',
  columns: PERSON_CSV_COLUMNS,
  parse: (filters) =>
    parseListQuery(filters, PERSON_STATUSES, { location: true, updatedSince: true }),
  customKeys: () => Promise.resolve([]),
  cell: (row, column) => row[column as keyof typeof row] ?? '',
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
