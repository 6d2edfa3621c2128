import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  AuditItemListQuery,
  AuditListQuery,
  AuditScanInput,
  AuditScanListQuery,
  CompleteAuditInput,
  ConsoleAuditScanInput,
  CreateAuditInput,
} from './audit.inputs';
import type { Audit, AuditItem, AuditScan } from './audit.views';

export class CreateAuditMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateAuditInput) body!: CreateAuditInput;
}

export class AuditListMessage extends CallerMessage {
  @ValidateNested() @Type(() => AuditListQuery) query!: AuditListQuery;
}

export class AuditScanMessage extends RecordMessage {
  @ValidateNested() @Type(() => AuditScanInput) body!: AuditScanInput;
}

export class ConsoleAuditScanMessage extends RecordMessage {
  @ValidateNested() @Type(() => ConsoleAuditScanInput) body!: ConsoleAuditScanInput;
}

export class AuditScanListMessage extends RecordMessage {
  @ValidateNested() @Type(() => AuditScanListQuery) query!: AuditScanListQuery;
}

export class AuditItemListMessage extends RecordMessage {
  @ValidateNested() @Type(() => AuditItemListQuery) query!: AuditItemListQuery;
}

export class CompleteAuditMessage extends RecordMessage {
  @ValidateNested() @Type(() => CompleteAuditInput) body!: CompleteAuditInput;
}

/** The audits of the register's API queue (RegisterRpc). */
export const AUDIT_RPC = {
  auditsList: rpc('audits.list', AuditListMessage, reply<Page<Audit>>(), LIST),
  auditsGet: rpc('audits.get', RecordMessage, reply<Audit>(), READ),
  auditsCreate: rpc('audits.create', CreateAuditMessage, reply<Audit>()),
  auditsScan: rpc('audits.scan', AuditScanMessage, reply<AuditScan>()),
  auditsConsoleScan: rpc('audits.scan-code', ConsoleAuditScanMessage, reply<AuditScan>()),
  auditsScans: rpc('audits.scans', AuditScanListMessage, reply<Page<AuditScan>>(), LIST),
  auditsItems: rpc('audits.items', AuditItemListMessage, reply<Page<AuditItem>>(), LIST),
  auditsComplete: rpc('audits.complete', CompleteAuditMessage, reply<Audit>()),
  auditsCancel: rpc('audits.cancel', RecordMessage, reply<Audit>()),
};
