export * from './audit.constants';
export * from './audit.events';
export * from './audit.inputs';
export {
  AuditItemListMessage,
  AuditListMessage,
  AuditScanListMessage,
  AuditScanMessage,
  CompleteAuditMessage,
  ConsoleAuditScanMessage,
  CreateAuditMessage,
} from './audit.messages';
export * from './audit.views';
