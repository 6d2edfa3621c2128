import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import {
  DomainError,
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
import { recentHoldings } from '../custody/custody.store';
import { releasePersonSeats } from '../licenses/license-seats';
import { licenseSettings } from '../licenses/license-settings';
import { personSeats } from '../licenses/license.store';
import { ListCache } from '@custodian/register-sql';
import { Injectable } from '@nestjs/common';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import type { EntityManager } from 'typeorm';
import { chooseLocation } from '../locations/location-tree';
import { resolveOptionalRef } from '../sql/named-refs';
import { UpdateSet } from '../sql/update-set';
import { answerList, bytesFormat } from '../listing/list-page';
import { SharedRuns } from '../listing/shared-runs';
import type { ListQuery } from '../listing/list-query';
import {
  PERSON_LIST,
  findPersonRow,
  insertPerson,
  toPersonDetail,
  toPersonSummary,
  updatePerson,
  type PersonSummaryRow,
} from './person.store';

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

  create(caller: CallerContext, input: CreatePersonInput): Promise<PersonDetail> {
    return this.writes.run(caller.workspaceId, (tx) => this.createIn(tx, caller, input));
  }

  /**
   * POST /people inside a transaction someone else runs (a CSV import's row); `origin` (the
   * import) is named as the feed entry's related record.
   */
  async createIn(
    tx: EntityManager,
    caller: CallerContext,
    input: CreatePersonInput,
    origin?: { id: string; name: string },
  ): Promise<PersonDetail> {
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
    await insertPerson(tx, {
      id,
      workspace_id: caller.workspaceId,
      full_name: input.full_name.trim(),
      email: input.email ?? null,
      employee_number: input.employee_number ?? null,
      status: input.status ?? 'active',
      department_id: await resolveOptionalRef(
        tx,
        'departments',
        caller.workspaceId,
        input.department,
      ),
      location_id: (await chooseLocation(tx, caller.workspaceId, input)) ?? null,
    });
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
      relatedId: origin?.id ?? null,
      relatedName: origin?.name ?? null,
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
  }

  /** `ifMatch`: the client's If-Match, checked against the person under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdatePersonInput,
    ifMatch?: readonly string[],
  ): Promise<PersonDetail> {
    return this.writes.run(caller.workspaceId, (tx) =>
      this.updateIn(tx, caller, id, input, ifMatch),
    );
  }

  /** PATCH /people/{id} inside a transaction someone else runs (a CSV import's row). */
  async updateIn(
    tx: EntityManager,
    caller: CallerContext,
    id: string,
    input: UpdatePersonInput,
    ifMatch?: readonly string[],
    origin?: { id: string; name: string },
  ): Promise<PersonDetail> {
    const current = await findPersonRow(tx, caller.workspaceId, id, true);
    if (ifMatch) {
      assertIfMatch(ifMatch, await this.detail(tx, caller.workspaceId, id), `Person ${id}`);
    }
    const update = new UpdateSet(current.id, caller.workspaceId);
    const set = (column: string, value: unknown) => update.set(column, value);
    if (input.full_name !== undefined) set('full_name', input.full_name.trim());
    if (input.status !== undefined && input.status !== current.status) set('status', input.status);
    for (const column of ['email', 'employee_number'] as const) {
      if (input[column] !== undefined) set(column, input[column]);
    }
    if (input.department !== undefined) {
      set(
        'department_id',
        await resolveOptionalRef(tx, 'departments', caller.workspaceId, input.department),
      );
    }
    const locationId = await chooseLocation(tx, caller.workspaceId, input);
    if (locationId !== undefined) set('location_id', locationId);
    if (input.release_licenses !== undefined && input.status !== 'inactive') {
      throw new DomainError(
        'invalid_input',
        'release_licenses goes with status: inactive (it releases the seats of an offboarding)',
      );
    }
    // Not said on an offboarding: the workspace's setting (GET /settings/licenses) decides.
    const release =
      input.release_licenses ??
      (input.status === 'inactive' &&
        current.status !== 'inactive' &&
        (await licenseSettings(tx, caller.workspaceId)).release_on_offboard);
    // Right after the person's lock: the licences' locks come next (license-seats.ts).
    if (release) {
      await releasePersonSeats(
        { tx, outbox: this.outbox, activity: this.activity, caller },
        current.id,
      );
    }
    if (update.empty) return this.detail(tx, caller.workspaceId, current.id);
    const before = toPersonDetail(current, [], 0);
    await updatePerson(tx, update);
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
        relatedId: origin?.id ?? null,
        relatedName: origin?.name ?? null,
        changes,
      });
    }
    return person;
  }

  /** The person as GET /people/{id} answers, read with `db` (a transaction of the caller's). */
  async detail(manager: EntityManager, workspaceId: string, id: string): Promise<PersonDetail> {
    const row = await findPersonRow(manager, workspaceId, id);
    const recent = await recentHoldings(manager, workspaceId, row.id);
    const seats = await personSeats(manager, workspaceId, row.id);
    return toPersonDetail(row, recent.reverse(), recent[0]?.total ?? 0, seats);
  }
}
