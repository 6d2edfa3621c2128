import {
  ConditionalRecordMessage,
  AssignSeatMessage,
  CreateLicenseMessage,
  LicenseListMessage,
  RecordMessage,
  RegisterRpc,
  ReleaseSeatMessage,
  UpdateLicenseMessage,
  UpdateLicenseSettingsMessage,
  CallerMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { LicenseSettingsService } from './license-settings';
import { LicensesService } from './licenses.service';

@Controller()
export class LicensesRpcController {
  constructor(
    private readonly licenses: LicensesService,
    private readonly settings: LicenseSettingsService,
  ) {}

  @Handles(RegisterRpc.licenseSettingsGet, REGISTER_RPC_TRANSPORT)
  getSettings(@Payload() message: CallerMessage) {
    return this.settings.get(message.caller);
  }

  @Handles(RegisterRpc.licenseSettingsUpdate, REGISTER_RPC_TRANSPORT)
  updateSettings(@Payload() message: UpdateLicenseSettingsMessage) {
    return this.settings.update(message.caller, message.body);
  }

  @Handles(RegisterRpc.licensesList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: LicenseListMessage) {
    return this.licenses.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.licensesGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.licenses.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.licensesCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateLicenseMessage) {
    return this.licenses.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.licensesUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateLicenseMessage) {
    return this.licenses.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.licensesDelete, REGISTER_RPC_TRANSPORT)
  delete(@Payload() message: ConditionalRecordMessage) {
    return this.licenses.delete(message.caller, message.id, message.if_match);
  }

  @Handles(RegisterRpc.licensesRestore, REGISTER_RPC_TRANSPORT)
  restore(@Payload() message: RecordMessage) {
    return this.licenses.restore(message.caller, message.id);
  }

  @Handles(RegisterRpc.licensesRevealKey, REGISTER_RPC_TRANSPORT)
  revealKey(@Payload() message: RecordMessage) {
    return this.licenses.revealKey(message.caller, message.id);
  }

  @Handles(RegisterRpc.licenseSeatsList, REGISTER_RPC_TRANSPORT)
  seats(@Payload() message: RecordMessage) {
    return this.licenses.seats(message.caller, message.id);
  }

  @Handles(RegisterRpc.licenseSeatsAssign, REGISTER_RPC_TRANSPORT)
  assign(@Payload() message: AssignSeatMessage) {
    return this.licenses.assignSeat(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.licenseSeatsRelease, REGISTER_RPC_TRANSPORT)
  release(@Payload() message: ReleaseSeatMessage) {
    return this.licenses.releaseSeat(message.caller, message.id, message.seatId);
  }
}
