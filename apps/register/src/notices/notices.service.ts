import {
  DomainError,
  type CallerContext,
  type NoticeSettings,
  type UpdateNoticeSettingsInput,
} from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { noticeSettings, writeNoticeSettings } from './notice-settings.store';

/**
 * The workspace's notice settings (GET, PATCH /settings/notices). A change applies to dates
 * set from then on: the notices already armed keep the thresholds they were armed with, as a
 * booking keeps the no-show grace it was made with.
 */
@Injectable()
export class NoticesService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
  ) {}

  get(caller: CallerContext): Promise<NoticeSettings> {
    return this.reads.run((db) => noticeSettings(db, caller.workspaceId));
  }

  update(caller: CallerContext, input: UpdateNoticeSettingsInput): Promise<NoticeSettings> {
    if (input.expiry_days === undefined) {
      throw new DomainError('invalid_input', 'Give at least one field to change: expiry_days');
    }
    return this.writes.run(caller.workspaceId, (tx) =>
      writeNoticeSettings(tx, caller.workspaceId, input),
    );
  }
}
