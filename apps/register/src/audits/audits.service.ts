import {
  AUDIT_PAGE_SIZE_DEFAULT,
  AUDIT_PAGE_SIZE_MAX,
  LOCATION_DEPTH_MAX,
  DomainError,
  callerActivity,
  type Audit,
  type AssetDetail,
  type AuditItem,
  type AuditItemListQuery,
  type AuditListQuery,
  type AuditScan,
  type AuditScanInput,
  type AuditScanListQuery,
  type CallerContext,
  type CompleteAuditInput,
  type CreateAuditInput,
  type Page,
} from '@custodian/contracts';
import { ActivityLog, newId, queryRows, type Queryable } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssetScanner, type ScanLookup } from '../assets/asset-scanner';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AuditJobs } from './audit-jobs';
import {
  auditPage,
  findAuditRow,
  findItem,
  insertAudit,
  itemPage,
  lockItem,
  scanPage,
  toAudit,
  toItem,
  toScan,
  type AuditRow,
} from './audit.store';

/** A scan's answer, and whether it was the first scan of the asset in the audit. */
export interface RecordedScan {
  scan: AuditScan;
  created: boolean;
}

/**
 * Audits (stock-takes). Starting and completing are background jobs (AuditJobs): the request
 * writes the audit (`starting`) or its completion options (`completing`) and the jobs do the
 * rest right after the commit. A scan is a few index probes and one small write: the audit's
 * row taken FOR KEY SHARE (a completion or a cancel, FOR UPDATE, waits for the scans in
 * flight; scans do not wait for each other), the item by (audit_id, asset_id), the asset
 * marked scanned as the console's scan does (AssetScanner), and the audit's counters moved
 * last, so scans of one audit queue on its row only for their last statement.
 */
@Injectable()
export class AuditsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly activity: ActivityLog,
    private readonly scanner: AssetScanner,
    private readonly jobs: AuditJobs,
  ) {}

  get(caller: CallerContext, id: string): Promise<Audit> {
    return this.reads.run(async (db) => toAudit(await findAuditRow(db, caller.workspaceId, id)));
  }

  list(caller: CallerContext, query: AuditListQuery): Promise<Page<Audit>> {
    const { page, pageSize } = pageParams(query, AUDIT_PAGE_SIZE_DEFAULT, AUDIT_PAGE_SIZE_MAX);
    return this.reads.heavy(async (db) => {
      const { rows, total } = await auditPage(
        db,
        { workspaceId: caller.workspaceId, ...(query.status ? { status: query.status } : {}) },
        page,
        pageSize,
      );
      return { data: rows.map(toAudit), page, pageSize, total };
    });
  }

  async create(caller: CallerContext, input: CreateAuditInput, now = new Date()): Promise<Audit> {
    const scopes = [input.location_id, input.category_id, input.asset_ids].filter(
      (scope) => scope !== undefined,
    );
    if (scopes.length !== 1) {
      throw new DomainError(
        'invalid_input',
        'location_id, category_id, asset_ids: give exactly one of them (the scope)',
      );
    }
    if (input.include_children !== undefined && input.location_id === undefined) {
      throw new DomainError('invalid_input', 'include_children: only with location_id');
    }
    if (input.due_at !== undefined && new Date(input.due_at).getTime() <= now.getTime()) {
      throw new DomainError('invalid_input', 'due_at must be in the future');
    }
    const workspaceId = caller.workspaceId;
    const audit = await this.writes.run(workspaceId, async (tx) => {
      const location = input.location_id
        ? await named(tx, 'locations', workspaceId, input.location_id, 'location_id', 'location')
        : null;
      const category = input.category_id
        ? await named(tx, 'categories', workspaceId, input.category_id, 'category_id', 'category')
        : null;
      if (input.asset_ids) {
        const known = await queryRows<{ id: string }>(
          tx,
          `SELECT id FROM register.assets WHERE workspace_id = $1 AND id = ANY($2::text[])`,
          [workspaceId, input.asset_ids],
        );
        const found = new Set(known.map((row) => row.id));
        const unknown = input.asset_ids.find((id) => !found.has(id));
        if (unknown) {
          throw new DomainError(
            'invalid_input',
            `asset_ids: ${unknown} is not an asset of this workspace`,
          );
        }
      }
      const id = newId('aud');
      await insertAudit(tx, {
        id,
        workspace_id: workspaceId,
        name: input.name.trim(),
        location_id: location?.id ?? null,
        location_name: location?.name ?? null,
        include_children: input.include_children === true,
        category_id: category?.id ?? null,
        category_name: category?.name ?? null,
        asset_ids: input.asset_ids ?? null,
        due_at: input.due_at ?? null,
        created_by: caller,
      });
      return toAudit(await findAuditRow(tx, workspaceId, id));
    });
    this.jobs.kick();
    return audit;
  }

  /** POST /audits/{id}/scans: by tag, serial number or id. */
  scan(caller: CallerContext, id: string, input: AuditScanInput): Promise<RecordedScan> {
    const given = [input.asset_tag, input.serial_number, input.asset_id].filter(
      (value) => value !== undefined,
    );
    if (given.length !== 1) {
      return Promise.reject(
        new DomainError(
          'invalid_input',
          'asset_tag, serial_number, asset_id: give exactly one of them',
        ),
      );
    }
    const lookup: ScanLookup =
      input.asset_tag !== undefined
        ? { asset_tag: input.asset_tag }
        : input.serial_number !== undefined
          ? { serial_number: input.serial_number }
          : { asset_id: input.asset_id ?? '' };
    return this.record(caller, id, lookup, input.location_id);
  }

  /** The console's scan: a code (a tag, else a serial number). */
  scanCode(
    caller: CallerContext,
    id: string,
    input: { code: string; location_id?: string },
  ): Promise<RecordedScan> {
    return this.record(caller, id, { code: input.code }, input.location_id);
  }

  scans(caller: CallerContext, id: string, query: AuditScanListQuery): Promise<Page<AuditScan>> {
    const { page, pageSize } = pageParams(query, AUDIT_PAGE_SIZE_DEFAULT, AUDIT_PAGE_SIZE_MAX);
    return this.reads.heavy(async (db) => {
      const audit = await findAuditRow(db, caller.workspaceId, id);
      const { rows, total } = await scanPage(db, audit.id, query.outcome, page, pageSize);
      return { data: rows.map((row) => toScan(row, false)), page, pageSize, total };
    });
  }

  items(caller: CallerContext, id: string, query: AuditItemListQuery): Promise<Page<AuditItem>> {
    const { page, pageSize } = pageParams(query, AUDIT_PAGE_SIZE_DEFAULT, AUDIT_PAGE_SIZE_MAX);
    return this.reads.heavy(async (db) => {
      const audit = await findAuditRow(db, caller.workspaceId, id);
      const { rows, total } = await itemPage(
        db,
        audit.id,
        query.state ?? 'expected',
        page,
        pageSize,
      );
      return { data: rows.map(toItem), page, pageSize, total };
    });
  }

  async complete(caller: CallerContext, id: string, input: CompleteAuditInput): Promise<Audit> {
    const workspaceId = caller.workspaceId;
    const audit = await this.writes.run(workspaceId, async (tx) => {
      const current = await findAuditRow(tx, workspaceId, id, 'FOR UPDATE');
      if (current.status !== 'open') throw notOpen(current, 'completed');
      await tx.query(
        `UPDATE register.audits SET status = 'completing', move_found = $2,
           mark_missing_lost = $3, completed_by = $4, progress_done = 0,
           progress_total = expected, updated_at = now()
         WHERE id = $1`,
        [
          current.id,
          input.move_found === true,
          input.mark_missing_lost === true,
          JSON.stringify(caller),
        ],
      );
      return toAudit(await findAuditRow(tx, workspaceId, id));
    });
    this.jobs.kick();
    return audit;
  }

  cancel(caller: CallerContext, id: string): Promise<Audit> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const current = await findAuditRow(tx, workspaceId, id, 'FOR UPDATE');
      if (current.status !== 'open' && current.status !== 'starting') {
        throw notOpen(current, 'cancelled');
      }
      await tx.query(
        `UPDATE register.audits SET status = 'cancelled', cancelled_at = now(),
           updated_at = now(), progress_done = NULL, progress_total = NULL WHERE id = $1`,
        [current.id],
      );
      const audit = toAudit(await findAuditRow(tx, workspaceId, id));
      await this.activity.record(tx, workspaceId, {
        ...callerActivity(caller),
        recordType: 'audit',
        recordId: audit.id,
        recordName: audit.name,
        action: 'cancelled',
        changes: [{ field: 'status', from: current.status, to: 'cancelled' }],
      });
      return audit;
    });
  }

  private async record(
    caller: CallerContext,
    id: string,
    lookup: ScanLookup,
    locationId: string | undefined,
  ): Promise<RecordedScan> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      // Key share: completes and cancels (FOR UPDATE) wait for this scan, scans do not.
      const audit = await findAuditRow(tx, workspaceId, id, 'FOR KEY SHARE');
      if (audit.status !== 'open') throw notOpen(audit, 'scanned');
      const { id: assetId, matched } = await this.scanner.findIn(tx, workspaceId, lookup);
      const given = locationId ? await scanLocation(tx, audit, locationId) : null;
      const item = await lockItem(tx, audit.id, assetId);
      if (item?.scanned_at) {
        return { scan: toScan(await findItem(tx, audit.id, assetId), true), created: false };
      }
      const at = given?.id ?? audit.location_id;
      const where =
        given ??
        (audit.location_id && audit.location_name !== null
          ? { id: audit.location_id, name: audit.location_name }
          : null);
      let outcome: AuditScan['outcome'];
      let scannedAt: Date;
      if (item) {
        outcome = given !== null && given.id !== item.expected_location_id ? 'misplaced' : 'found';
        const asset = await this.scanned(tx, caller, assetId, lookup, matched);
        // The item and the audit's counters last, in one statement: scans of one audit queue
        // on its row for this statement only.
        const [row] = await queryRows<{ scanned_at: Date }>(
          tx,
          `WITH item AS (
             UPDATE register.audit_items SET state = $3, scanned_at = now(), scan_location_id = $4
              WHERE audit_id = $1 AND asset_id = $2 RETURNING scanned_at),
           counts AS (
             UPDATE register.audits SET found = found + 1, misplaced = misplaced + $5
              WHERE id = $1)
           SELECT scanned_at FROM item`,
          [audit.id, assetId, outcome, at, outcome === 'misplaced' ? 1 : 0],
        );
        scannedAt = row?.scanned_at ?? new Date();
        return { scan: scanOf(asset, outcome, scannedAt, where), created: true };
      }
      const inserted = await queryRows<{ scanned_at: Date }>(
        tx,
        `INSERT INTO register.audit_items (audit_id, asset_id, workspace_id, asset_name,
           asset_tag, expected, state, scanned_at, scan_location_id, settled)
         SELECT $1, x.id, x.workspace_id, x.name, x.asset_tag, false, 'unexpected', now(), $3,
                true
           FROM register.assets x WHERE x.id = $2
         ON CONFLICT DO NOTHING RETURNING scanned_at`,
        [audit.id, assetId, at],
      );
      // Another scan of the same asset committed first: this one is its repeat.
      if (!inserted[0]) {
        return { scan: toScan(await findItem(tx, audit.id, assetId), true), created: false };
      }
      outcome = 'unexpected';
      scannedAt = inserted[0].scanned_at;
      const asset = await this.scanned(tx, caller, assetId, lookup, matched);
      await tx.query(`UPDATE register.audits SET unexpected = unexpected + 1 WHERE id = $1`, [
        audit.id,
      ]);
      return { scan: scanOf(asset, outcome, scannedAt, where), created: true };
    });
  }

  private async scanned(
    tx: EntityManager,
    caller: CallerContext,
    assetId: string,
    lookup: ScanLookup,
    matched: 'asset_tag' | 'serial_number' | 'asset_id',
  ): Promise<AssetDetail> {
    const code = Object.values(lookup)[0] as string;
    return this.scanner.recordIn(tx, caller, assetId, code.trim(), matched);
  }
}

function scanOf(
  asset: AssetDetail,
  outcome: AuditScan['outcome'],
  scannedAt: Date,
  location: { id: string; name: string } | null,
): AuditScan {
  return {
    asset: { id: asset.id, name: asset.name, asset_tag: asset.asset_tag },
    outcome,
    scanned_at: scannedAt.toISOString(),
    location,
    repeated: false,
  };
}

function notOpen(audit: Pick<AuditRow, 'id' | 'name' | 'status'>, what: string): DomainError {
  return new DomainError(
    'conflict',
    `Audit ${audit.name} (${audit.id}) is ${audit.status}; only an ${
      what === 'cancelled' ? 'open or starting' : 'open'
    } audit can be ${what}`,
  );
}

/** A location or category of the workspace, by id; 404 naming the field. */
async function named(
  db: Queryable,
  table: 'locations' | 'categories',
  workspaceId: string,
  id: string,
  field: string,
  what: string,
): Promise<{ id: string; name: string }> {
  const [row] = await queryRows<{ id: string; name: string }>(
    db,
    `SELECT id, name FROM register.${table} WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  // A body's reference, like location_id on an asset: a 400 naming the field.
  if (!row) {
    throw new DomainError('invalid_input', `${field}: ${id} is not a ${what} of this workspace`);
  }
  return row;
}

/**
 * Where a scan says the asset is: a place of the workspace (400 naming the field), and for an
 * audit of a location, that place or one under it (400 otherwise). A walk up from the place,
 * one probe per level.
 */
async function scanLocation(
  db: Queryable,
  audit: AuditRow,
  id: string,
): Promise<{ id: string; name: string }> {
  const rows = await queryRows<{ id: string; name: string }>(
    db,
    `WITH RECURSIVE up(id, name, parent_id, depth) AS (
       SELECT l.id, l.name, l.parent_id, 0 FROM register.locations l
        WHERE l.workspace_id = $1 AND l.id = $2
       UNION ALL
       SELECT p.id, p.name, p.parent_id, u.depth + 1 FROM register.locations p
         JOIN up u ON p.id = u.parent_id WHERE u.depth < ${LOCATION_DEPTH_MAX})
     SELECT id, name FROM up ORDER BY depth`,
    [audit.workspace_id, id],
  );
  if (rows.length === 0) {
    throw new DomainError(
      'invalid_input',
      `location_id: ${id} is not a location of this workspace`,
    );
  }
  if (audit.location_id !== null && !rows.some((row) => row.id === audit.location_id)) {
    throw new DomainError(
      'invalid_input',
      `location_id: location ${id} is not ${audit.location_name ?? audit.location_id} nor a ` +
        'place under it (the audited place)',
    );
  }
  return rows[0] as { id: string; name: string };
}
