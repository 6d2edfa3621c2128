import {
  AssetMaintenanceListMessage,
  CreateMaintenanceMessage,
  MaintenanceListMessage,
  RecordMessage,
  RegisterRpc,
  ResolveMaintenanceMessage,
  UpdateMaintenanceMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { MaintenanceService } from './maintenance.service';

@Controller()
export class MaintenanceRpcController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @Handles(RegisterRpc.maintenanceList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: MaintenanceListMessage) {
    return this.maintenance.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.assetMaintenanceList, REGISTER_RPC_TRANSPORT)
  listOfAsset(@Payload() message: AssetMaintenanceListMessage) {
    return this.maintenance.listOfAsset(message.caller, message.id, message.query);
  }

  @Handles(RegisterRpc.maintenanceGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.maintenance.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.maintenanceCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateMaintenanceMessage) {
    return this.maintenance.create(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.maintenanceUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateMaintenanceMessage) {
    return this.maintenance.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.maintenanceResolve, REGISTER_RPC_TRANSPORT)
  resolve(@Payload() message: ResolveMaintenanceMessage) {
    return this.maintenance.resolve(message.caller, message.id, message.body);
  }
}
