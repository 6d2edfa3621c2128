import {
  ConditionalRecordMessage,
  CreateLocationMessage,
  LocationListMessage,
  RecordMessage,
  RegisterRpc,
  UpdateLocationMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { LocationsService } from './locations.service';

@Controller()
export class LocationsRpcController {
  constructor(private readonly locations: LocationsService) {}

  @Handles(RegisterRpc.locationsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: LocationListMessage) {
    return this.locations.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.locationsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.locations.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.locationsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateLocationMessage) {
    return this.locations.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.locationsUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateLocationMessage) {
    return this.locations.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.locationsDelete, REGISTER_RPC_TRANSPORT)
  delete(@Payload() message: ConditionalRecordMessage) {
    return this.locations.delete(message.caller, message.id, message.if_match);
  }
}
