import { deleteRule } from '@custodian/persistence';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { invitationRetention } from './invitation-pruner';

/**
 * Issue 31, item 8: invitations are not kept for ever. Before, every accepted or expired
 * invitation (its e-mail and token hash) stayed in the table.
 */
describe('invitation retention (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 2));
    db = store.db;
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  /** An invitation expiring at `expiresDays` from now, accepted `acceptedDays` from now. */
  async function invitation(
    id: string,
    expiresDays: number,
    acceptedDays: number | null,
  ): Promise<void> {
    await db.query(
      `INSERT INTO register.members (id, workspace_id, email, role, status, invited_at)
       VALUES ($1, 'wsp_1', $1 || '@example.com', 'member', 'invited', now())`,
      [`usr_${id}`],
    );
    await db.query(
      `INSERT INTO register.invitations (id, workspace_id, member_id, token_hash, expires_at,
         accepted_at)
       VALUES ($1, 'wsp_1', $2, $3, now() + make_interval(days => $4),
         CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END)`,
      [id, `usr_${id}`, randomBytes(32), expiresDays, acceptedDays],
    );
  }

  it('deletes those accepted or expired over 30 days ago, never an open one', async () => {
    await invitation('inv_accepted_old', -20, -31);
    await invitation('inv_expired_old', -31, null);
    await invitation('inv_accepted_recent', -20, -29);
    await invitation('inv_expired_recent', -29, null);
    await invitation('inv_open', 5, null);
    await expect(deleteRule(db, invitationRetention(30))).resolves.toBe(2);
    const left = await db.query<Array<{ id: string }>>(
      `SELECT id FROM register.invitations ORDER BY id`,
    );
    expect(left.map((row) => row.id)).toEqual([
      'inv_accepted_recent',
      'inv_expired_recent',
      'inv_open',
    ]);
  });
});
