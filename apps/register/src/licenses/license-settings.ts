import type {
  CallerContext,
  LicenseSettings,
  UpdateLicenseSettingsInput,
} from '@custodian/contracts';
import { DomainError } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import type { LicenseSettingsEntity } from './license-settings.entity';

type SettingsRow = Pick<LicenseSettingsEntity, 'release_on_offboard' | 'updated_at'>;

/** The workspace's licence settings, or the defaults when it has no row. */
export async function licenseSettings(
  db: Queryable,
  workspaceId: string,
): Promise<LicenseSettings> {
  const [row] = await queryRows<SettingsRow>(
    db,
    `SELECT release_on_offboard, updated_at FROM register.license_settings
      WHERE workspace_id = $1`,
    [workspaceId],
  );
  return row
    ? { release_on_offboard: row.release_on_offboard, updated_at: row.updated_at.toISOString() }
    : { release_on_offboard: false, updated_at: null };
}

async function writeLicenseSettings(
  tx: EntityManager,
  workspaceId: string,
  input: UpdateLicenseSettingsInput,
): Promise<LicenseSettings> {
  await tx.query(
    `INSERT INTO register.license_settings AS s (workspace_id, release_on_offboard, updated_at)
          VALUES ($1, coalesce($2::boolean, false), now())
     ON CONFLICT ON CONSTRAINT license_settings_pkey DO UPDATE
            SET release_on_offboard = coalesce($2::boolean, s.release_on_offboard),
                updated_at = now()`,
    [workspaceId, input.release_on_offboard ?? null],
  );
  return licenseSettings(tx, workspaceId);
}

/** GET, PATCH /settings/licenses. */
@Injectable()
export class LicenseSettingsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
  ) {}

  get(caller: CallerContext): Promise<LicenseSettings> {
    return this.reads.run((db) => licenseSettings(db, caller.workspaceId));
  }

  async update(caller: CallerContext, input: UpdateLicenseSettingsInput): Promise<LicenseSettings> {
    if (input.release_on_offboard === undefined) {
      throw new DomainError(
        'invalid_input',
        'Give at least one field to change: release_on_offboard',
      );
    }
    return this.writes.run(caller.workspaceId, (tx) =>
      writeLicenseSettings(tx, caller.workspaceId, input),
    );
  }
}
