import { AppliedWrites, COMMIT_MARGIN_MS } from '@custodian/messaging';
import type { DataSource } from 'typeorm';

/**
 * The register's writes, applied once per request in register.applied_requests: the
 * library's AppliedWrites (libs/messaging), which the webhook-worker's console writes share.
 * The class keeps its name so the services and their tests read as before.
 */
export class WriteTransactions extends AppliedWrites {
  constructor(db: DataSource, marginMs = COMMIT_MARGIN_MS) {
    super(db, 'register', marginMs, 'The register');
  }
}
