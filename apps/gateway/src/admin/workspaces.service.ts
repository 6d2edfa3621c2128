import { OutboxWriter } from '@custodian/messaging';
import {
  ChangeLimitsInput,
  ChangePlanInput,
  CreateWorkspaceInput,
  DomainError,
  RegisterAdminRpc,
  type EffectiveLimits,
  type LimitName,
  type MemberView,
  type WorkspaceView,
} from '@custodian/contracts';
import { effectiveLimits } from '@custodian/plans';
import { newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessPublisher } from '../keys/access-publisher';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { planLimits, type PlanEntity } from './plan.entity';
import type { WorkspaceEntity } from './workspace.entity';

/** A workspace and the limits of its plan (`w.*, p.<limits>`). */
type WorkspaceRow = WorkspaceEntity & Omit<PlanEntity, 'name'>;

const OVERRIDE_FIELDS: Array<[keyof ChangeLimitsInput, LimitName]> = [
  ['rate_per_minute', 'ratePerMinute'],
  ['monthly_quota', 'monthlyQuota'],
  ['assets', 'assets'],
  ['people', 'people'],
  ['seats', 'seats'],
];

/** Workspaces and their plans. Every change is pushed to the key cache before it returns. */
@Injectable()
export class WorkspacesService {
  constructor(
    private readonly db: DataSource,
    private readonly publisher: AccessPublisher,
    private readonly outbox: OutboxWriter,
    private readonly registerAdmin: RegisterAdminClient,
  ) {}

  /**
   * A new workspace; with `owner_email`, also its owner, an active member that the register
   * creates. If the register refuses or cannot be reached the workspace is removed again
   * (it has no keys yet), so a workspace never exists without the owner asked for.
   */
  async create(input: CreateWorkspaceInput): Promise<WorkspaceView & { owner?: MemberView }> {
    const id = newId('wsp');
    await this.db.query(`INSERT INTO gateway.workspaces (id, name, plan) VALUES ($1, $2, $3)`, [
      id,
      input.name.trim(),
      input.plan,
    ]);
    if (input.owner_email === undefined) return this.get(id);
    let owner: MemberView;
    try {
      owner = await this.registerAdmin.call(RegisterAdminRpc.ownerCreate, {
        workspace: id,
        email: input.owner_email,
      });
    } catch (error) {
      await this.db.query(`DELETE FROM gateway.workspaces WHERE id = $1`, [id]);
      throw error;
    }
    return { ...(await this.get(id)), owner };
  }

  async get(id: unknown, manager: EntityManager = this.db.manager): Promise<WorkspaceView> {
    const rows =
      typeof id === 'string'
        ? await manager.query<WorkspaceRow[]>(
            `SELECT w.*, p.api_access, p.rate_per_minute, p.monthly_quota, p.assets, p.people, p.seats
             FROM gateway.workspaces w JOIN gateway.plans p ON p.name = w.plan WHERE w.id = $1`,
            [id],
          )
        : [];
    if (!rows[0]) throw new DomainError('not_found', `Workspace ${String(id)} not found`);
    return toView(rows[0]);
  }

  async changePlan(input: ChangePlanInput): Promise<WorkspaceView> {
    return this.change(input.workspace, (tx) =>
      tx.query(`UPDATE gateway.workspaces SET plan = $2, updated_at = now() WHERE id = $1`, [
        input.workspace,
        input.plan,
      ]),
    );
  }

  async changeLimits(input: ChangeLimitsInput): Promise<WorkspaceView> {
    const current = await this.get(input.workspace);
    const overrides: Partial<EffectiveLimits> = { ...current.overrides };
    for (const [field, limit] of OVERRIDE_FIELDS) {
      const value = input[field];
      if (value === undefined || field === 'workspace') continue;
      if (value === 'plan') delete overrides[limit];
      else overrides[limit] = value === 'unlimited' ? null : Number(value);
    }
    return this.change(input.workspace, (tx) =>
      tx.query(`UPDATE gateway.workspaces SET overrides = $2, updated_at = now() WHERE id = $1`, [
        input.workspace,
        JSON.stringify(overrides),
      ]),
    );
  }

  /** A plan or limits change and its `plan.changed` event, published to the key cache. */
  private async change(
    workspaceId: string,
    update: (tx: EntityManager) => Promise<unknown>,
  ): Promise<WorkspaceView> {
    return this.publisher.change(workspaceId, async (tx) => {
      const previous = await this.get(workspaceId, tx);
      await update(tx);
      const next = await this.get(workspaceId, tx);
      await this.outbox.write(tx, workspaceId, 'plan.changed', {
        workspace: { id: next.id, name: next.name },
        previous: { plan: previous.plan, limits: previous.limits },
        current: { plan: next.plan, limits: next.limits },
      });
      return next;
    });
  }
}

function toView(row: WorkspaceRow): WorkspaceView {
  const plan = planLimits(row);
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    api_access: row.api_access,
    limits: effectiveLimits(plan, row.overrides),
    overrides: row.overrides,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
