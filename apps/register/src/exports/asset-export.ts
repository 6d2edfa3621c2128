import {
  ASSET_CSV_COLUMNS,
  ASSET_STATUSES,
  type CallerContext,
  type ExportChunk,
  type ExportChunkMessage,
} from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';
import { parseListQuery } from '../listing/list-query';
import { ReadTransactions } from '../requests/read-transactions';
import { customCell, exportChunk, isoSql, type ExportSource } from './csv-export';

type AssetCsvRow = Record<(typeof ASSET_CSV_COLUMNS)[number], string | null> & {
  custom_fields: Record<string, unknown> | null;
  cursor_at: string;
};

const ASSETS: ExportSource<AssetCsvRow> = {
  select: `a.id, a.name, a.asset_tag, a.serial_number, a.status, a.brand, a.model, a.sku,
    c.name AS category, a.category_id, l.name AS location, a.location_id, a.assigned_to_id,
    p.full_name AS assigned_to, ${isoSql('a.custody_due_at')} AS due_at, a.condition,
    to_char(a.purchase_date, 'YYYY-MM-DD') AS purchase_date,
    to_char(a.warranty_expires_on, 'YYYY-MM-DD') AS warranty_expires_on,
    ${isoSql('a.created_at')} AS created_at, ${isoSql('a.updated_at')} AS updated_at,
    a.custom_fields`,
  from: `register.assets a
    LEFT JOIN register.categories c ON c.id = a.category_id
    LEFT JOIN register.locations l ON l.id = a.location_id
    LEFT JOIN register.people p ON p.id = a.assigned_to_id`,
  alias: 'a',
  columns: ASSET_CSV_COLUMNS,
  parse: (filters) =>
    parseListQuery(filters, ASSET_STATUSES, {
      assignedTo: true,
      warranty: true,
      location: true,
      category: true,
      updatedSince: true,
    }),
  customKeys: async (db, workspaceId) =>
    (
      await db.query<Array<{ key: string }>>(
        `SELECT key FROM register.custom_fields WHERE workspace_id = $1 ORDER BY key`,
        [workspaceId],
      )
    ).map((row) => row.key),
  cell: (row, column) =>
    column in row && column !== 'custom_fields'
      ? ((row[column as keyof typeof row] as string | null) ?? '')
      : customCell(row.custom_fields?.[column]),
};

/** GET /assets/export: the workspace's assets as CSV, chunk by chunk. */
@Injectable()
export class AssetExports {
  constructor(
    private readonly reads: ReadTransactions,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'EXPORT_CHUNK_ROWS'>,
  ) {}

  chunk(caller: CallerContext, message: ExportChunkMessage): Promise<ExportChunk> {
    return this.reads.heavy((db) =>
      exportChunk(db, caller, message, ASSETS, this.config.EXPORT_CHUNK_ROWS),
    );
  }
}
