import { SYSTEM_ACTOR, type WarrantyNotice } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import { lockNoticeSubject } from '../due-dates/due-notice.store';
import {
  armExpiry,
  settleExpiry,
  type ExpiryKinds,
  type ExpiryState,
} from '../notices/expiry-notices';
import { assetSubject } from './assignment-overdue';

export const WARRANTY_EXPIRING = 'warranty.expiring';
export const WARRANTY_EXPIRED = 'warranty.expired';
const KINDS: ExpiryKinds = { expiring: WARRANTY_EXPIRING, expired: WARRANTY_EXPIRED };

/**
 * Arms (or cancels) the warranty notices of an asset for its `warranty_expires_on`, in the
 * transaction of the write that set it, right after the asset's row was locked and before the
 * workspace's counters (ADR 0020). Null (cleared, or deleted): none; its other dates (a
 * check-out's overdue notice) are left alone.
 */
export function armWarrantyExpiry(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
  expiresOn: string | null,
  options: { now?: Date; passed?: boolean } = {},
): Promise<void> {
  return armExpiry(tx, assetSubject(workspaceId, assetId), KINDS, expiresOn, options);
}

/**
 * The warranty's dates on the due-date engine (notices/expiry-notices.ts), each fired once:
 * `warranty.expiring` at each threshold of the notice settings, `warranty.expired` at the end
 * of `warranty_expires_on`. A notice whose asset moved on (deleted, date cleared or changed)
 * is obsolete.
 */
@Injectable()
export class WarrantyExpiryDueDates implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(WARRANTY_EXPIRING, (tx, notice) => this.fire(tx, notice));
    this.engine.handle(WARRANTY_EXPIRED, (tx, notice) => this.fire(tx, notice));
  }

  async fire(tx: EntityManager, notice: DueNotice): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    const state = await lockWarranty(tx, notice);
    if (typeof state === 'string') return state;
    return settleExpiry(tx, notice, KINDS, state, async (what, on, left) => {
      const asset = { id: notice.subjectId, name: state.name, asset_tag: state.asset_tag };
      const data: WarrantyNotice = { asset, expires_on: on, days_left: left };
      await this.outbox.write(tx, workspaceId, `warranty.${what}`, data);
      await this.activity.record(tx, workspaceId, {
        source: 'system',
        actor: SYSTEM_ACTOR,
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: `warranty_${what}`,
        relatedId: null,
        relatedName: null,
        changes: [{ field: 'days_left', from: null, to: String(left) }],
      });
    });
  }
}

/** The asset's row, locked (busy when a write holds it), with its warranty's last day. */
async function lockWarranty(
  tx: EntityManager,
  notice: DueNotice,
): Promise<(ExpiryState & { name: string; asset_tag: string }) | 'busy' | 'obsolete'> {
  // Not in register.assets: deleted (its notices were cancelled with it): obsolete.
  const locked = await lockNoticeSubject<{
    name: string;
    asset_tag: string;
    warranty_expires_on: string | null;
  }>(
    tx,
    notice,
    'register.assets',
    `name, asset_tag, to_char(warranty_expires_on, 'YYYY-MM-DD') AS warranty_expires_on`,
  );
  if (typeof locked === 'string') return locked;
  if (locked.warranty_expires_on === null) return 'obsolete';
  return { expiresOn: locked.warranty_expires_on, name: locked.name, asset_tag: locked.asset_tag };
}
