import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import {
  CallerMessage,
  ConditionalRecordMessage,
  ListMessage,
  RecordMessage,
  type ListReply,
} from '../rpc/messages';
import { CreatePersonInput, UpdatePersonInput } from './person.inputs';
import type { PersonDetail, PersonSummary } from './person.views';

export class CreatePersonMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreatePersonInput) body!: CreatePersonInput;
}

export class UpdatePersonMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdatePersonInput) body!: UpdatePersonInput;
}

/** The people of the register's API queue (RegisterRpc). */
export const PEOPLE_RPC = {
  peopleList: rpc('people.list', ListMessage, reply<ListReply<PersonSummary>>(), LIST),
  peopleGet: rpc('people.get', RecordMessage, reply<PersonDetail>(), READ),
  peopleCreate: rpc('people.create', CreatePersonMessage, reply<PersonDetail>()),
  peopleUpdate: rpc('people.update', UpdatePersonMessage, reply<PersonDetail>()),
};
