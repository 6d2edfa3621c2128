import {
  ASSET_REQUEST_PAGE_SIZE_DEFAULT,
  ASSET_REQUEST_PAGE_SIZE_MAX,
  BOOKING_DAYS_MAX,
  CONSOLE_KEY_PREFIX,
  DomainError,
  callerActivity,
  type ApproveAssetRequestInput,
  type AssetRequest,
  type AssetRequestListQuery,
  type CallerContext,
  type CreateAssetRequestInput,
  type CreateBookingInput,
  type Page,
  type RejectAssetRequestInput,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, newId, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { mayApprove, notAllowed } from '../bookings/booking-roles';
import { BookingsService } from '../bookings/bookings.service';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import {
  categoryNamed,
  decideRequest,
  findRequestRow,
  insertRequest,
  linkBooking,
  lockGivenAsset,
  requestPage,
  toAssetRequest,
  type AssetRequestRow,
} from './asset-request.store';

const DAY_MS = 86_400_000;
/** An asset in one of these is not there to give (as for bookings). */
const UNAVAILABLE = new Set(['retired', 'lost', 'stolen', 'inactive']);

/**
 * Asset requests: someone asks for a given asset or any asset of a category, for a person,
 * for now or for a range (`request.created`); a manager and above (a write key acts as admin)
 * approves with the asset given, checked out now or booked, or rejects with a reason.
 *
 * An approval is one transaction: the decision, `request.approved`, then the check-out or the
 * booking exactly as PATCH /assets/{id} or POST /bookings would make it (their events, feed
 * entries and dates). When that refuses (the asset is out, booked, a booking overlaps) the
 * whole approval rolls back and the request is still pending, with a 409 naming why.
 *
 * Members see and fetch only the requests they made; managers and above, and API keys, all of
 * the workspace's (the inbox is `status=pending`).
 */
@Injectable()
export class AssetRequestsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    private readonly assets: AssetsService,
    private readonly bookings: BookingsService,
  ) {}

  get(caller: CallerContext, id: string): Promise<AssetRequest> {
    return this.reads.run(async (db) => {
      const own = await ownOnly(db, caller);
      return toAssetRequest(
        await findRequestRow(db, caller.workspaceId, id, own ? { createdBy: caller.keyId } : {}),
      );
    });
  }

  list(caller: CallerContext, query: AssetRequestListQuery): Promise<Page<AssetRequest>> {
    const { page, pageSize } = pageParams(
      query,
      ASSET_REQUEST_PAGE_SIZE_DEFAULT,
      ASSET_REQUEST_PAGE_SIZE_MAX,
    );
    // A plain read, not the heavy lane's: the member's role is read in it, and a page of a
    // workspace's requests is small (the inbox is the pending few).
    return this.reads.run(async (db) => {
      const own = await ownOnly(db, caller);
      const { rows, total } = await requestPage(
        db,
        {
          workspaceId: caller.workspaceId,
          ...(query.status ? { status: query.status } : {}),
          ...(query.person_id ? { personId: query.person_id } : {}),
          ...(query.asset_id ? { assetId: query.asset_id } : {}),
          ...(own ? { createdBy: caller.keyId } : {}),
        },
        page,
        pageSize,
      );
      return { data: rows.map(toAssetRequest), page, pageSize, total };
    });
  }

  create(caller: CallerContext, input: CreateAssetRequestInput): Promise<AssetRequest> {
    if ((input.asset_id === undefined) === (input.category === undefined)) {
      throw new DomainError(
        'invalid_input',
        'asset_id or category: give exactly one (a given asset, or any asset of a category)',
      );
    }
    const range = requestedRange(input.starts_at, input.ends_at);
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const person = await activePerson(tx, workspaceId, input.person_id, 'person_id');
      let assetId: string | null = null;
      let categoryId: string | null = null;
      if (input.asset_id !== undefined) {
        const [asset] = await queryRows<{ id: string; name: string; status: string }>(
          tx,
          `SELECT id, name, status FROM register.assets WHERE id = $1 AND workspace_id = $2`,
          [input.asset_id, workspaceId],
        );
        if (!asset) {
          throw new DomainError('invalid_input', `asset_id: asset ${input.asset_id} not found`);
        }
        if (UNAVAILABLE.has(asset.status)) {
          throw new DomainError(
            'invalid_input',
            `asset_id: ${asset.name} (${asset.id}) is ${asset.status} and cannot be requested`,
          );
        }
        assetId = asset.id;
      } else {
        const category = await categoryNamed(tx, workspaceId, input.category ?? '');
        if (!category) {
          throw new DomainError(
            'invalid_input',
            `category: no category named "${(input.category ?? '').trim()}" in this workspace`,
          );
        }
        categoryId = category.id;
      }
      const id = newId('req');
      await insertRequest(tx, {
        id,
        workspace_id: workspaceId,
        person_id: person.id,
        asset_id: assetId,
        category_id: categoryId,
        starts_at: range?.startsAt ?? null,
        ends_at: range?.endsAt ?? null,
        note: input.note?.trim() || null,
        created_by: caller.keyId,
      });
      const request = toAssetRequest(await findRequestRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'request.created', request);
      await this.record(tx, caller, request, 'created');
      return request;
    });
  }

  /**
   * Approves a pending request with the asset given: `request.approved`, then the check-out's
   * (`asset.updated`, `assignment.checked_out`) or the booking's (`booking.created`,
   * `booking.confirmed`) events, all or nothing.
   */
  async approve(
    caller: CallerContext,
    id: string,
    input: ApproveAssetRequestInput,
  ): Promise<AssetRequest> {
    const workspaceId = caller.workspaceId;
    let booked: CreateBookingInput | undefined;
    try {
      return await this.writes.run(workspaceId, async (tx) => {
        const row = await this.pending(tx, caller, id, 'approve');
        await activePerson(tx, workspaceId, row.person_id, 'the request’s person');
        const assetId = input.asset_id ?? row.asset_id;
        if (!assetId) {
          throw new DomainError(
            'invalid_input',
            `asset_id: request ${id} asks for any ${row.category_name ?? 'asset'}; name the asset given`,
          );
        }
        const asset = await lockGivenAsset(tx, workspaceId, assetId);
        if (!asset) throw new DomainError('invalid_input', `asset_id: asset ${assetId} not found`);
        if (row.category_id && asset.category_id !== row.category_id) {
          throw new DomainError(
            'invalid_input',
            `asset_id: ${asset.name} (${asset.id}) is not in category ${row.category_name}, ` +
              'which the request asks for',
          );
        }
        if (UNAVAILABLE.has(asset.status)) {
          throw new DomainError(
            'invalid_input',
            `asset_id: ${asset.name} (${asset.id}) is ${asset.status} and cannot be given`,
          );
        }
        const fulfilment = input.fulfil_by ?? (row.starts_at ? 'booking' : 'check_out');
        const note = input.note?.trim() || null;
        const decision = {
          status: 'approved' as const,
          decided_by: caller.keyId,
          decision_note: note,
          given_asset_id: asset.id,
          fulfilled_by: fulfilment,
          booking_id: null,
        };
        if (fulfilment === 'booking') {
          const startsAt = input.starts_at ?? row.starts_at?.toISOString();
          const endsAt = input.ends_at ?? row.ends_at?.toISOString();
          if (!startsAt || !endsAt) {
            throw new DomainError(
              'invalid_input',
              `starts_at and ends_at: request ${id} gives no range; give both to book`,
            );
          }
          booked = {
            person_id: row.person_id,
            asset_ids: [asset.id],
            starts_at: startsAt,
            ends_at: endsAt,
            notes: row.note,
          };
          const bookingId = newId('bkg');
          await decideRequest(tx, id, decision);
          const approved = toAssetRequest(await findRequestRow(tx, workspaceId, id));
          // The event says which booking, made right after it in this transaction.
          await this.outbox.write(tx, workspaceId, 'request.approved', {
            ...approved,
            decision: approved.decision && { ...approved.decision, booking_id: bookingId },
          });
          // Made for whoever asked: they may change or cancel it as their own.
          await this.bookings.createIn(tx, caller, booked, {
            id: bookingId,
            createdBy: row.created_by,
          });
          await linkBooking(tx, id, bookingId);
        } else {
          if (asset.assigned_to_id !== null) {
            throw new DomainError(
              'conflict',
              `${asset.name} (${asset.id}) is checked out to ${asset.holder_name ?? asset.assigned_to_id}; ` +
                'check it in first, or give another asset',
            );
          }
          const dueAt =
            input.due_at ??
            (row.ends_at && row.ends_at.getTime() > Date.now()
              ? row.ends_at.toISOString()
              : undefined);
          await decideRequest(tx, id, decision);
          const approved = toAssetRequest(await findRequestRow(tx, workspaceId, id));
          await this.outbox.write(tx, workspaceId, 'request.approved', approved);
          // As PATCH /assets/{id} hands it out: refused (409) when a booking holds it.
          await this.assets.updateIn(tx, caller, asset.id, {
            assigned_to_id: row.person_id,
            ...(dueAt ? { due_at: dueAt } : {}),
          });
        }
        const request = toAssetRequest(await findRequestRow(tx, workspaceId, id));
        await this.record(tx, caller, request, 'approved');
        return request;
      });
    } catch (error) {
      if (booked) throw await this.bookings.overlapRefused(error, workspaceId, booked);
      throw error;
    }
  }

  reject(caller: CallerContext, id: string, input: RejectAssetRequestInput): Promise<AssetRequest> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      await this.pending(tx, caller, id, 'reject');
      await decideRequest(tx, id, {
        status: 'rejected',
        decided_by: caller.keyId,
        decision_note: input.note.trim(),
        given_asset_id: null,
        fulfilled_by: null,
        booking_id: null,
      });
      const request = toAssetRequest(await findRequestRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'request.rejected', request);
      await this.record(tx, caller, request, 'rejected');
      return request;
    });
  }

  /** The request, locked, still pending, and the caller may decide it. */
  private async pending(
    tx: EntityManager,
    caller: CallerContext,
    id: string,
    what: 'approve' | 'reject',
  ): Promise<AssetRequestRow> {
    const approver = await mayApprove(tx, caller);
    // A member is told nothing of a request not theirs (404), as for a fetch.
    const row = await findRequestRow(tx, caller.workspaceId, id, {
      forUpdate: true,
      ...(approver || !isConsole(caller) ? {} : { createdBy: caller.keyId }),
    });
    if (!approver) throw notAllowed(`${what} a request`);
    if (row.status !== 'pending') {
      throw new DomainError(
        'conflict',
        `Request ${id} is already ${row.status}; only a pending request can be ${what === 'approve' ? 'approved' : 'rejected'}`,
      );
    }
    return row;
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    request: AssetRequest,
    action: 'created' | 'approved' | 'rejected',
  ): Promise<void> {
    const what = request.asset?.name ?? `any ${request.category?.name ?? 'asset'}`;
    const decision = request.decision;
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'request',
      recordId: request.id,
      recordName: `${what} for ${request.person.name}`,
      action,
      relatedId: request.person.id,
      relatedName: request.person.name,
      changes:
        action === 'created'
          ? [
              { field: 'starts_at', from: null, to: request.starts_at },
              { field: 'ends_at', from: null, to: request.ends_at },
            ].filter((change) => change.to !== null)
          : [
              { field: 'status', from: 'pending', to: request.status },
              ...(decision?.asset ? [{ field: 'asset', from: null, to: decision.asset.name }] : []),
              ...(decision?.fulfilled_by
                ? [{ field: 'fulfilled_by', from: null, to: decision.fulfilled_by }]
                : []),
              ...(decision?.note ? [{ field: 'note', from: null, to: decision.note }] : []),
            ],
    });
  }
}

function isConsole(caller: CallerContext): boolean {
  return caller.keyId.startsWith(CONSOLE_KEY_PREFIX);
}

/** A console member below manager sees only their own requests; keys and managers all. */
async function ownOnly(db: EntityManager, caller: CallerContext): Promise<boolean> {
  return isConsole(caller) && !(await mayApprove(db, caller));
}

async function activePerson(
  tx: EntityManager,
  workspaceId: string,
  personId: string,
  field: string,
): Promise<{ id: string }> {
  const [person] = await queryRows<{ id: string; full_name: string; status: string }>(
    tx,
    `SELECT id, full_name, status FROM register.people WHERE id = $1 AND workspace_id = $2`,
    [personId, workspaceId],
  );
  if (!person) throw new DomainError('invalid_input', `${field}: person ${personId} not found`);
  if (person.status !== 'active') {
    throw new DomainError(
      field === 'person_id' ? 'invalid_input' : 'conflict',
      `${field}: ${person.full_name} (${person.id}) is inactive`,
    );
  }
  return person;
}

/** Both ends or neither; the end after the start and in the future, within a booking's span. */
function requestedRange(
  startsAt: string | undefined,
  endsAt: string | undefined,
): { startsAt: Date; endsAt: Date } | undefined {
  if (startsAt === undefined && endsAt === undefined) return undefined;
  if (startsAt === undefined || endsAt === undefined) {
    throw new DomainError(
      'invalid_input',
      `${startsAt === undefined ? 'starts_at' : 'ends_at'}: give starts_at and ends_at together, or neither`,
    );
  }
  const range = { startsAt: new Date(startsAt), endsAt: new Date(endsAt) };
  if (range.endsAt <= range.startsAt) {
    throw new DomainError('invalid_input', 'ends_at must be after starts_at');
  }
  if (range.endsAt.getTime() <= Date.now()) {
    throw new DomainError('invalid_input', 'ends_at must be in the future');
  }
  if (range.endsAt.getTime() - range.startsAt.getTime() > BOOKING_DAYS_MAX * DAY_MS) {
    throw new DomainError(
      'invalid_input',
      `ends_at must be at most ${BOOKING_DAYS_MAX} days after starts_at`,
    );
  }
  return range;
}
