import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import { CreateLocationInput, LocationListQuery, UpdateLocationInput } from './location.inputs';
import type { Location } from './location.views';

export class CreateLocationMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateLocationInput) body!: CreateLocationInput;
}

export class UpdateLocationMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateLocationInput) body!: UpdateLocationInput;
}

export class LocationListMessage extends CallerMessage {
  @ValidateNested() @Type(() => LocationListQuery) query!: LocationListQuery;
}

/** The locations of the register's API queue (RegisterRpc). */
export const LOCATION_RPC = {
  locationsList: rpc('locations.list', LocationListMessage, reply<Page<Location>>(), LIST),
  locationsGet: rpc('locations.get', RecordMessage, reply<Location>(), READ),
  locationsCreate: rpc('locations.create', CreateLocationMessage, reply<Location>()),
  locationsUpdate: rpc('locations.update', UpdateLocationMessage, reply<Location>()),
  locationsDelete: rpc('locations.delete', ConditionalRecordMessage, reply<Location>()),
};
