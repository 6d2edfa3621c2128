import {
  ConditionalRecordMessage,
  CreateReminderMessage,
  RecordMessage,
  RegisterRpc,
  ReminderListMessage,
  UpdateReminderMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { RemindersService } from './reminders.service';

@Controller()
export class RemindersRpcController {
  constructor(private readonly reminders: RemindersService) {}

  @Handles(RegisterRpc.remindersList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: ReminderListMessage) {
    return this.reminders.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.remindersGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.reminders.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.remindersCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateReminderMessage) {
    return this.reminders.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.remindersUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateReminderMessage) {
    return this.reminders.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.remindersCancel, REGISTER_RPC_TRANSPORT)
  cancel(@Payload() message: ConditionalRecordMessage) {
    return this.reminders.cancel(message.caller, message.id, message.if_match);
  }
}
