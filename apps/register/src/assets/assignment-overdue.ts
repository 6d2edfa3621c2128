import { SYSTEM_ACTOR } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import { armNotice, cancelNotices, type DueSubject } from '../due-dates/due-notice.store';
import { claimOverdueCheckout, findAssetRow, toDetail } from './asset.store';

/** The due-date kind of a check-out's due date: the event it fires. */
export const OVERDUE_KIND = 'assignment.overdue';

/** The subject type of the register's notices about an asset. */
export const ASSET_SUBJECT = 'asset';

export function assetSubject(workspaceId: string, assetId: string): DueSubject {
  return { workspaceId, type: ASSET_SUBJECT, id: assetId };
}

/**
 * Arms the overdue notice of the asset's check-out for `dueAt`, or cancels it (null: a
 * check-in, a check-out without a due date, the due date removed), in the transaction of the
 * write that sets the date: the notice and the asset never disagree.
 */
export async function armOverdue(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
  dueAt: Date | null,
): Promise<void> {
  const subject = assetSubject(workspaceId, assetId);
  if (dueAt) await armNotice(tx, subject, OVERDUE_KIND, dueAt);
  else await cancelNotices(tx, subject, OVERDUE_KIND);
}

/**
 * Fires `assignment.overdue` when a check-out's due date passes while the asset is still out:
 * the handler of the due-date engine's `assignment.overdue` notices, armed by armOverdue. It
 * runs in the engine's claiming transaction, so the event, the feed entry and the notice
 * marked fired commit together: once per due date, whichever replica runs it and however often
 * the register restarts (ADR 0020). The payload and the feed entry are the overdue sweep's
 * before the engine, unchanged.
 */
@Injectable()
export class AssignmentOverdue implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(OVERDUE_KIND, (tx, notice, now) => this.fire(tx, notice, now));
  }

  async fire(tx: EntityManager, notice: DueNotice, now: Date): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    const claim = await claimOverdueCheckout(tx, workspaceId, notice.subjectId, notice.dueAt, now);
    if (claim !== 'due') return claim;
    const row = await findAssetRow(tx, workspaceId, notice.subjectId);
    const asset = toDetail(row);
    if (!asset.custody || row.custody_due_at === null) {
      // claimOverdueCheckout saw it checked out with this due date, under its lock.
      throw new Error(`Asset ${asset.id} has no check-out with a due date to fire`);
    }
    const dueAt = row.custody_due_at.toISOString();
    await this.outbox.write(tx, workspaceId, 'assignment.overdue', {
      asset,
      person: asset.custody.person,
      since: asset.custody.since,
      due_at: dueAt,
    });
    await this.activity.record(tx, workspaceId, {
      source: 'system',
      actor: SYSTEM_ACTOR,
      recordType: 'asset',
      recordId: asset.id,
      recordName: asset.name,
      action: 'overdue',
      relatedId: asset.custody.person.id,
      relatedName: asset.custody.person.name,
      changes: [{ field: 'due_at', from: null, to: dueAt }],
    });
    return 'fired';
  }
}
