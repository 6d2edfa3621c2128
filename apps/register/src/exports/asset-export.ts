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
import { csvCellSql, exportChunk, isoSql, plainCellSql, type ExportSource } from './csv-export';

const ASSETS: ExportSource = {
  columns: {
    id: plainCellSql('a.id'),
    name: csvCellSql('a.name'),
    asset_tag: csvCellSql('a.asset_tag'),
    serial_number: csvCellSql('a.serial_number'),
    status: plainCellSql('a.status'),
    brand: csvCellSql('a.brand'),
    model: csvCellSql('a.model'),
    sku: csvCellSql('a.sku'),
    category: csvCellSql('c.name'),
    category_id: plainCellSql('a.category_id'),
    location: csvCellSql('l.name'),
    location_id: plainCellSql('a.location_id'),
    assigned_to_id: plainCellSql('a.assigned_to_id'),
    assigned_to: csvCellSql('p.full_name'),
    due_at: plainCellSql(isoSql('a.custody_due_at')),
    condition: plainCellSql('a.condition'),
    purchase_date: plainCellSql(`to_char(a.purchase_date, 'YYYY-MM-DD')`),
    warranty_expires_on: plainCellSql(`to_char(a.warranty_expires_on, 'YYYY-MM-DD')`),
    created_at: plainCellSql(isoSql('a.created_at')),
    updated_at: plainCellSql(isoSql('a.updated_at')),
  } satisfies Record<(typeof ASSET_CSV_COLUMNS)[number], string>,
  order: ASSET_CSV_COLUMNS,
  from: `register.assets a
    LEFT JOIN register.categories c ON c.id = a.category_id
    LEFT JOIN register.locations l ON l.id = a.location_id
    LEFT JOIN register.people p ON p.id = a.assigned_to_id`,
  alias: 'a',
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
  // A scalar's text (->>); the custom field types are all scalars.
  custom: (key) => `a.custom_fields->>${key}`,
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
