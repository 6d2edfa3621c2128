import { OutboxWriter } from '@custodian/messaging';
import {
  DomainError,
  PERSON_HOLDINGS_MAX,
  callerActivity,
  type CallerContext,
  type CreatePersonInput,
  type ListReply,
  type PersonDetail,
  type PersonStatus,
  type PersonSummary,
  type UpdatePersonInput,
} from '@custodian/contracts';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import { ActivityLog, newId } from '@custodian/persistence';
import { personChanges } from '../activity/record-changes';
import { lockWorkspaceCounters } from '../counters/workspace-counters';
import { ListCache, type ListSource } from '@custodian/register-sql';
import { Injectable } from '@nestjs/common';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import type { EntityManager } from 'typeorm';
import { resolveOptionalRef } from '../sql/named-refs';
import { UpdateSet } from '../sql/update-set';
import { answerList, bytesFormat } from '../listing/list-page';
import { SharedRuns } from '../listing/shared-runs';
import type { ListQuery } from '../listing/list-query';
import {
  PERSON_DETAIL_COLUMNS,
  PERSON_DETAIL_FROM,
  PERSON_SUMMARY_COLUMNS,
  toPersonDetail,
  toPersonSummary,
  type HoldingRow,
  type PersonDetailRow,
  type PersonSummaryRow,
} from './person-rows';

/** What GET /people reads. */
const PERSON_LIST: ListSource = {
  columns: PERSON_SUMMARY_COLUMNS,
  from: 'register.people p',
  table: 'register.people',
  alias: 'p',
  counter: 'person_count',
  version: 'person_version',
  rowsVersion: 'person_rows_version',
};
const BYTES_FORMAT = bytesFormat(PERSON_LIST.columns, toPersonSummary);

/** People equipment is issued to (not logins). Every write and its events: one transaction. */
@Injectable()
export class PeopleService {
  private readonly unpaged = new SharedRuns<ListReply<PersonSummary>>();

  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    private readonly lists: ListCache = new ListCache(),
  ) {}

  /** `known`: as for AssetsService.list. */
  list(
    caller: CallerContext,
    query: ListQuery<PersonStatus>,
    known?: string,
  ): Promise<ListReply<PersonSummary>> {
    return answerList(
      { reads: this.reads, unpaged: this.unpaged, cache: this.lists },
      {
        ...PERSON_LIST,
        workspaceId: caller.workspaceId,
        query,
        map: (row: PersonSummaryRow) => toPersonSummary(row),
        format: BYTES_FORMAT,
      },
      known,
    );
  }

  get(caller: CallerContext, id: string): Promise<PersonDetail> {
    return this.reads.run((db) => this.detail(db, caller.workspaceId, id));
  }

  async create(caller: CallerContext, input: CreatePersonInput): Promise<PersonDetail> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      // Serialises creates in the workspace, so the people limit is exact.
      const count = (await lockWorkspaceCounters(tx, caller.workspaceId)).person_count;
      const limit = caller.limits.people;
      if (wouldExceed(limit, count)) {
        throw new DomainError(
          'limit_reached',
          limitReachedMessage('people', limit ?? 0, caller.plan),
        );
      }
      const id = newId('per');
      await tx.query(
        `INSERT INTO register.people (id, workspace_id, full_name, email, employee_number, status,
           department_id, location_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          id,
          caller.workspaceId,
          input.full_name.trim(),
          input.email ?? null,
          input.employee_number ?? null,
          input.status ?? 'active',
          await resolveOptionalRef(tx, 'departments', caller.workspaceId, input.department),
          await resolveOptionalRef(tx, 'locations', caller.workspaceId, input.location),
        ],
      );
      await tx.query(
        `UPDATE register.workspace_counters SET person_count = person_count + 1
         WHERE workspace_id = $1`,
        [caller.workspaceId],
      );
      const person = await this.detail(tx, caller.workspaceId, id);
      await this.outbox.write(tx, caller.workspaceId, 'employee.created', person);
      await this.activity.record(tx, caller.workspaceId, {
        ...callerActivity(caller),
        recordType: 'person',
        recordId: person.id,
        recordName: person.full_name,
        action: 'created',
        changes: personChanges(null, person),
      });
      if (limit !== null && count + 1 === limit) {
        await this.outbox.write(tx, caller.workspaceId, 'plan.limit_reached', {
          workspace: { id: caller.workspaceId },
          plan: caller.plan,
          limit: 'people',
          value: limit,
        });
      }
      return person;
    });
  }

  async update(caller: CallerContext, id: string, input: UpdatePersonInput): Promise<PersonDetail> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      const current = await this.findRow(tx, caller.workspaceId, id, true);
      const update = new UpdateSet(current.id, caller.workspaceId);
      const set = (column: string, value: unknown) => update.set(column, value);
      if (input.full_name !== undefined) set('full_name', input.full_name.trim());
      if (input.status !== undefined && input.status !== current.status)
        set('status', input.status);
      for (const column of ['email', 'employee_number'] as const) {
        if (input[column] !== undefined) set(column, input[column]);
      }
      if (input.department !== undefined) {
        set(
          'department_id',
          await resolveOptionalRef(tx, 'departments', caller.workspaceId, input.department),
        );
      }
      if (input.location !== undefined) {
        set(
          'location_id',
          await resolveOptionalRef(tx, 'locations', caller.workspaceId, input.location),
        );
      }
      if (update.empty) return this.detail(tx, caller.workspaceId, current.id);
      const before = toPersonDetail(current, [], 0);
      await tx.query(update.statement('register.people'), update.params);
      const person = await this.detail(tx, caller.workspaceId, current.id);
      // The row lock above makes this exact: once per move to inactive, never while inactive.
      const offboarded = current.status !== 'inactive' && person.status === 'inactive';
      if (offboarded) {
        await this.outbox.write(tx, caller.workspaceId, 'employee.offboarded', person);
      }
      const changes = personChanges(before, person);
      if (changes.length > 0) {
        await this.activity.record(tx, caller.workspaceId, {
          ...callerActivity(caller),
          recordType: 'person',
          recordId: person.id,
          recordName: person.full_name,
          action: offboarded ? 'offboarded' : 'updated',
          changes,
        });
      }
      return person;
    });
  }

  private async detail(
    manager: EntityManager,
    workspaceId: string,
    id: string,
  ): Promise<PersonDetail> {
    const row = await this.findRow(manager, workspaceId, id);
    // The most recent check-outs, so a reply or an event stays small whatever a person holds;
    // the window count is taken before the LIMIT, over every holding.
    const recent = await manager.query<Array<HoldingRow & { total: number }>>(
      `SELECT id, name, asset_tag, assigned_at, count(*) OVER ()::int AS total
       FROM register.assets WHERE workspace_id = $1 AND assigned_to_id = $2
       ORDER BY assigned_at DESC, id DESC LIMIT ${PERSON_HOLDINGS_MAX}`,
      [workspaceId, row.id],
    );
    return toPersonDetail(row, recent.reverse(), recent[0]?.total ?? 0);
  }

  /** Within the caller's workspace only; the same 404 for unknown and foreign ids. */
  private async findRow(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    forUpdate = false,
  ): Promise<PersonDetailRow> {
    const rows =
      id.length <= 64 && !id.includes('\u0000')
        ? await manager.query<PersonDetailRow[]>(
            `SELECT ${PERSON_DETAIL_COLUMNS} FROM ${PERSON_DETAIL_FROM}
             WHERE p.id = $1 AND p.workspace_id = $2${forUpdate ? ' FOR UPDATE OF p' : ''}`,
            [id, workspaceId],
          )
        : [];
    const row = rows[0];
    if (!row) throw new DomainError('not_found', `Person ${id} not found`);
    return row;
  }
}
