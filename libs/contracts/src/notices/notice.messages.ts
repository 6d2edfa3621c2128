import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { READ } from '../rpc/message-options';
import { CallerMessage } from '../rpc/messages';
import { UpdateNoticeSettingsInput } from './notice.inputs';
import type { NoticeSettings } from './notice.views';

export class UpdateNoticeSettingsMessage extends CallerMessage {
  @ValidateNested() @Type(() => UpdateNoticeSettingsInput) body!: UpdateNoticeSettingsInput;
}

/** The notice settings of the register's API queue (RegisterRpc). */
export const NOTICE_RPC = {
  noticeSettingsGet: rpc('notices.settings.get', CallerMessage, reply<NoticeSettings>(), READ),
  noticeSettingsUpdate: rpc(
    'notices.settings.update',
    UpdateNoticeSettingsMessage,
    reply<NoticeSettings>(),
  ),
};
