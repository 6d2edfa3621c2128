import {
  BOOKING_NO_SHOW_GRACE_MINUTES,
  type BookingSettings,
  type UpdateBookingSettingsInput,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { BookingSettingsEntity } from './booking.entity';

/* register.booking_settings: a workspace's row, or the defaults when it has none. */

type SettingsRow = Pick<
  BookingSettingsEntity,
  'approval_required' | 'no_show_grace_minutes' | 'updated_at'
>;

const DEFAULTS = { approval_required: false, no_show_grace_minutes: BOOKING_NO_SHOW_GRACE_MINUTES };

export async function bookingSettings(
  db: Queryable,
  workspaceId: string,
): Promise<BookingSettings> {
  const [row] = await queryRows<SettingsRow>(
    db,
    `SELECT approval_required, no_show_grace_minutes, updated_at
       FROM register.booking_settings WHERE workspace_id = $1`,
    [workspaceId],
  );
  return row ? toSettings(row) : { ...DEFAULTS, updated_at: null };
}

/**
 * Writes the fields sent over the current ones (the defaults for a first write), in one
 * statement: two changes of different fields at once both land.
 */
export async function writeBookingSettings(
  tx: EntityManager,
  workspaceId: string,
  input: UpdateBookingSettingsInput,
): Promise<BookingSettings> {
  const [row] = await queryRows<SettingsRow>(
    tx,
    `INSERT INTO register.booking_settings AS s
            (workspace_id, approval_required, no_show_grace_minutes, updated_at)
          VALUES ($1, coalesce($2::boolean, $4), coalesce($3::integer, $5), now())
     ON CONFLICT ON CONSTRAINT booking_settings_pkey DO UPDATE
            SET approval_required = coalesce($2::boolean, s.approval_required),
                no_show_grace_minutes = coalesce($3::integer, s.no_show_grace_minutes),
                updated_at = now()
     RETURNING approval_required, no_show_grace_minutes, updated_at`,
    [
      workspaceId,
      input.approval_required ?? null,
      input.no_show_grace_minutes ?? null,
      DEFAULTS.approval_required,
      DEFAULTS.no_show_grace_minutes,
    ],
  );
  if (!row) throw new Error('booking_settings: the upsert returned no row');
  return toSettings(row);
}

function toSettings(row: SettingsRow): BookingSettings {
  return {
    approval_required: row.approval_required,
    no_show_grace_minutes: row.no_show_grace_minutes,
    updated_at: row.updated_at.toISOString(),
  };
}
