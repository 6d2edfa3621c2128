import type {
  Audit,
  AuditCompletion,
  AuditInput,
  AuditItemPage,
  AuditItemQuery,
  AuditListQuery,
  AuditPage,
  AuditScan,
  ConsoleAuditScanInput,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listAudits(query: AuditListQuery): Promise<AuditPage> {
  return send(
    'see audits',
    client.GET('/console/api/audits', { params: { query } }),
    'audits.view',
  );
}

export function getAudit(id: string): Promise<Audit> {
  return send('see audits', client.GET('/console/api/audits/{id}', byId(id)), 'audits.view');
}

export function listAuditItems(id: string, query: AuditItemQuery): Promise<AuditItemPage> {
  return send(
    'see audits',
    client.GET('/console/api/audits/{id}/items', { params: { path: { id }, query } }),
    'audits.view',
  );
}

export function startAudit(input: AuditInput): Promise<Audit> {
  return send('start audits', client.POST('/console/api/audits', { body: input }), 'audits.manage');
}

export function recordAuditScan(id: string, scan: ConsoleAuditScanInput): Promise<AuditScan> {
  return send(
    'scan into audits',
    client.POST('/console/api/audits/{id}/scans', { ...byId(id), body: scan }),
    'audits.manage',
  );
}

export function completeAudit(id: string, options: AuditCompletion): Promise<Audit> {
  return send(
    'complete audits',
    client.POST('/console/api/audits/{id}/complete', { ...byId(id), body: options }),
    'audits.manage',
  );
}

export function cancelAudit(id: string): Promise<Audit> {
  return send(
    'cancel audits',
    client.POST('/console/api/audits/{id}/cancel', byId(id)),
    'audits.manage',
  );
}
