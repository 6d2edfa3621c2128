import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  CreateMaintenanceInput,
  MaintenanceListQuery,
  ResolveMaintenanceInput,
  UpdateMaintenanceInput,
} from './maintenance.inputs';
import type { Maintenance } from './maintenance.views';

/** `id` is the asset's. */
export class CreateMaintenanceMessage extends RecordMessage {
  @ValidateNested() @Type(() => CreateMaintenanceInput) body!: CreateMaintenanceInput;
}

export class UpdateMaintenanceMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateMaintenanceInput) body!: UpdateMaintenanceInput;
}

export class ResolveMaintenanceMessage extends RecordMessage {
  @ValidateNested() @Type(() => ResolveMaintenanceInput) body!: ResolveMaintenanceInput;
}

export class MaintenanceListMessage extends CallerMessage {
  @ValidateNested() @Type(() => MaintenanceListQuery) query!: MaintenanceListQuery;
}

/** GET /assets/{id}/maintenance: `id` is the asset's (404 when it is not there). */
export class AssetMaintenanceListMessage extends RecordMessage {
  @ValidateNested() @Type(() => MaintenanceListQuery) query!: MaintenanceListQuery;
}

/** The maintenance records of the register's API queue (RegisterRpc). */
export const MAINTENANCE_RPC = {
  maintenanceList: rpc(
    'maintenance.list',
    MaintenanceListMessage,
    reply<Page<Maintenance>>(),
    LIST,
  ),
  assetMaintenanceList: rpc(
    'maintenance.list-of-asset',
    AssetMaintenanceListMessage,
    reply<Page<Maintenance>>(),
    LIST,
  ),
  maintenanceGet: rpc('maintenance.get', RecordMessage, reply<Maintenance>(), READ),
  maintenanceCreate: rpc('maintenance.create', CreateMaintenanceMessage, reply<Maintenance>()),
  maintenanceUpdate: rpc('maintenance.update', UpdateMaintenanceMessage, reply<Maintenance>()),
  maintenanceResolve: rpc('maintenance.resolve', ResolveMaintenanceMessage, reply<Maintenance>()),
};
