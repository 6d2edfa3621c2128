import {
  CreatePersonMessage,
  ListMessage,
  PERSON_STATUSES,
  RecordMessage,
  RegisterRpc,
  UpdatePersonMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { parseListQuery } from '../listing/list-query';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { PeopleService } from './people.service';

@Controller()
export class PeopleRpcController {
  constructor(private readonly people: PeopleService) {}

  @Handles(RegisterRpc.peopleList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: ListMessage) {
    return this.people.list(
      message.caller,
      parseListQuery(message.query, PERSON_STATUSES, { location: true, updatedSince: true }),
      message.known,
    );
  }

  @Handles(RegisterRpc.peopleGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.people.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.peopleCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreatePersonMessage) {
    return this.people.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.peopleUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdatePersonMessage) {
    return this.people.update(message.caller, message.id, message.body, message.if_match);
  }
}
