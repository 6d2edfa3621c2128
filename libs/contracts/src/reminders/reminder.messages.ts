import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import { CreateReminderInput, ReminderListQuery, UpdateReminderInput } from './reminder.inputs';
import type { Reminder } from './reminder.views';

export class CreateReminderMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateReminderInput) body!: CreateReminderInput;
}

export class UpdateReminderMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateReminderInput) body!: UpdateReminderInput;
}

export class ReminderListMessage extends CallerMessage {
  @ValidateNested() @Type(() => ReminderListQuery) query!: ReminderListQuery;
}

/** The reminders of the register's API queue (RegisterRpc). */
export const REMINDER_RPC = {
  remindersList: rpc('reminders.list', ReminderListMessage, reply<Page<Reminder>>(), LIST),
  remindersGet: rpc('reminders.get', RecordMessage, reply<Reminder>(), READ),
  remindersCreate: rpc('reminders.create', CreateReminderMessage, reply<Reminder>()),
  remindersUpdate: rpc('reminders.update', UpdateReminderMessage, reply<Reminder>()),
  remindersCancel: rpc('reminders.cancel', ConditionalRecordMessage, reply<Reminder>()),
};
