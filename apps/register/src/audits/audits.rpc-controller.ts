import {
  AuditItemListMessage,
  AuditListMessage,
  AuditScanListMessage,
  AuditScanMessage,
  CompleteAuditMessage,
  ConsoleAuditScanMessage,
  CreateAuditMessage,
  RecordMessage,
  RegisterRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { AuditsService } from './audits.service';

@Controller()
export class AuditsRpcController {
  constructor(private readonly audits: AuditsService) {}

  @Handles(RegisterRpc.auditsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: AuditListMessage) {
    return this.audits.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.auditsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.audits.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.auditsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateAuditMessage) {
    return this.audits.create(message.caller, message.body);
  }

  /** The scan, `repeated: true` when the asset was scanned in this audit before. */
  @Handles(RegisterRpc.auditsScan, REGISTER_RPC_TRANSPORT)
  async scan(@Payload() message: AuditScanMessage) {
    return (await this.audits.scan(message.caller, message.id, message.body)).scan;
  }

  @Handles(RegisterRpc.auditsConsoleScan, REGISTER_RPC_TRANSPORT)
  async scanCode(@Payload() message: ConsoleAuditScanMessage) {
    return (await this.audits.scanCode(message.caller, message.id, message.body)).scan;
  }

  @Handles(RegisterRpc.auditsScans, REGISTER_RPC_TRANSPORT)
  scans(@Payload() message: AuditScanListMessage) {
    return this.audits.scans(message.caller, message.id, message.query);
  }

  @Handles(RegisterRpc.auditsItems, REGISTER_RPC_TRANSPORT)
  items(@Payload() message: AuditItemListMessage) {
    return this.audits.items(message.caller, message.id, message.query);
  }

  @Handles(RegisterRpc.auditsComplete, REGISTER_RPC_TRANSPORT)
  complete(@Payload() message: CompleteAuditMessage) {
    return this.audits.complete(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.auditsCancel, REGISTER_RPC_TRANSPORT)
  cancel(@Payload() message: RecordMessage) {
    return this.audits.cancel(message.caller, message.id);
  }
}
