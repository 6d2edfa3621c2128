import { DomainError, type EffectiveLimits } from '@custodian/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { PlanEntity } from './plan.entity';
import type { WorkspaceEntity } from './workspace.entity';

/*
 * gateway.workspaces and the plan catalog gateway.plans: their SQL and their row types. A key's
 * access record joins both; that read is the keys' (keys/access-store.ts).
 */

/** A workspace and the limits of its plan (`w.*, p.<limits>`). */
export type WorkspaceRow = WorkspaceEntity & Omit<PlanEntity, 'name'>;

/** The columns a creation writes; the rest take their defaults. */
export type NewWorkspaceRow = Pick<WorkspaceEntity, 'id' | 'name' | 'plan'>;

export async function insertWorkspace(
  tx: EntityManager,
  workspace: NewWorkspaceRow,
): Promise<void> {
  await tx.query(`INSERT INTO gateway.workspaces (id, name, plan) VALUES ($1, $2, $3)`, [
    workspace.id,
    workspace.name,
    workspace.plan,
  ]);
}

export async function findWorkspaceRow(
  manager: EntityManager,
  id: string,
): Promise<WorkspaceRow | undefined> {
  const rows = await manager.query<WorkspaceRow[]>(
    `SELECT w.*, p.api_access, p.rate_per_minute, p.monthly_quota, p.assets, p.people, p.seats
             FROM gateway.workspaces w JOIN gateway.plans p ON p.name = w.plan WHERE w.id = $1`,
    [id],
  );
  return rows[0];
}

export function setPlan(
  tx: EntityManager,
  id: string,
  plan: WorkspaceEntity['plan'],
): Promise<unknown> {
  return tx.query(`UPDATE gateway.workspaces SET plan = $2, updated_at = now() WHERE id = $1`, [
    id,
    plan,
  ]);
}

export function setOverrides(
  tx: EntityManager,
  id: string,
  overrides: Partial<EffectiveLimits>,
): Promise<unknown> {
  return tx.query(
    `UPDATE gateway.workspaces SET overrides = $2, updated_at = now() WHERE id = $1`,
    [id, JSON.stringify(overrides)],
  );
}

/** The database's clock now (not the transaction's start): when plan facts are stated. */
export async function clockNow(tx: EntityManager): Promise<Date | undefined> {
  const rows = await tx.query<Array<{ now: Date }>>(`SELECT clock_timestamp() AS now`);
  return rows[0]?.now;
}

/** The workspace's row lock, held to the end of the transaction (keys/access-publisher.ts). */
export async function lockWorkspace(tx: EntityManager, workspaceId: string): Promise<void> {
  const rows = await tx.query<unknown[]>(
    `SELECT id FROM gateway.workspaces WHERE id = $1 FOR UPDATE`,
    [workspaceId],
  );
  if (rows.length === 0) throw new DomainError('not_found', `Workspace ${workspaceId} not found`);
}

/** The names and plans of the workspaces with these ids (the console's sign-in). */
export function workspaceNames(
  db: DataSource,
  ids: string[],
): Promise<Array<Pick<WorkspaceEntity, 'id' | 'name' | 'plan'>>> {
  return db.query<Array<Pick<WorkspaceEntity, 'id' | 'name' | 'plan'>>>(
    `SELECT id, name, plan FROM gateway.workspaces WHERE id = ANY($1)`,
    [ids],
  );
}
