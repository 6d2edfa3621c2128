import {
  EXPIRY_NOTICE_DAYS_DEFAULT,
  type NoticeSettings,
  type UpdateNoticeSettingsInput,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { NoticeSettingsEntity } from './notice-settings.entity';

/* register.notice_settings: a workspace's row, or the defaults when it has none. */

type SettingsRow = Pick<NoticeSettingsEntity, 'expiry_days' | 'updated_at'>;

export async function noticeSettings(db: Queryable, workspaceId: string): Promise<NoticeSettings> {
  const [row] = await queryRows<SettingsRow>(
    db,
    `SELECT expiry_days, updated_at FROM register.notice_settings WHERE workspace_id = $1`,
    [workspaceId],
  );
  return row ? toSettings(row) : { expiry_days: [...EXPIRY_NOTICE_DAYS_DEFAULT], updated_at: null };
}

/** Writes the fields sent over the current ones (the defaults for a first write). */
export async function writeNoticeSettings(
  tx: EntityManager,
  workspaceId: string,
  input: UpdateNoticeSettingsInput,
): Promise<NoticeSettings> {
  const days = input.expiry_days ? [...input.expiry_days].sort((a, b) => b - a) : null;
  const [row] = await queryRows<SettingsRow>(
    tx,
    `INSERT INTO register.notice_settings AS s (workspace_id, expiry_days, updated_at)
          VALUES ($1, coalesce($2::integer[], $3::integer[]), now())
     ON CONFLICT ON CONSTRAINT notice_settings_pkey DO UPDATE
            SET expiry_days = coalesce($2::integer[], s.expiry_days), updated_at = now()
     RETURNING expiry_days, updated_at`,
    [workspaceId, days, [...EXPIRY_NOTICE_DAYS_DEFAULT]],
  );
  if (!row) throw new Error('notice_settings: the upsert returned no row');
  return toSettings(row);
}

function toSettings(row: SettingsRow): NoticeSettings {
  return {
    expiry_days: [...row.expiry_days].sort((a, b) => b - a),
    updated_at: row.updated_at.toISOString(),
  };
}
