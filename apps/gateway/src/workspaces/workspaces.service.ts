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
  type WorkspacePlanFacts,
  type WorkspaceView,
} from '@custodian/contracts';
import { effectiveLimits } from '@custodian/plans';
import { newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { planLimits } from './plan.entity';
import { WorkspaceChangePublisher } from './workspace-change-publisher';
import {
  clockNow,
  findWorkspaceRow,
  insertWorkspace,
  setOverrides,
  setPlan,
  type WorkspaceRow,
} from './workspace.store';

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
    private readonly publisher: WorkspaceChangePublisher,
    private readonly outbox: OutboxWriter,
    private readonly registerAdmin: RegisterAdminClient,
  ) {}

  /**
   * A new workspace; with `owner_email`, also its owner, an active member that the register
   * creates. The workspace and its plan facts (ADR 0019) commit only once the register has
   * created the owner: if it refuses or cannot be reached nothing is kept, so a workspace
   * never exists without the owner asked for, nor facts without a workspace.
   */
  async create(input: CreateWorkspaceInput): Promise<WorkspaceView & { owner?: MemberView }> {
    const id = newId('wsp');
    return this.db.transaction(async (tx) => {
      await insertWorkspace(tx, { id, name: input.name.trim(), plan: input.plan });
      const created = await this.get(id, tx);
      await this.statePlanFacts(tx, created);
      if (input.owner_email === undefined) return created;
      const owner = await this.registerAdmin.call(RegisterAdminRpc.ownerCreate, {
        workspace: id,
        email: input.owner_email,
      });
      return { ...created, owner };
    });
  }

  private async statePlanFacts(tx: EntityManager, view: WorkspaceView): Promise<void> {
    const now = await clockNow(tx);
    await this.outbox.writePlanFacts(tx, planFactsOf(view, now ?? new Date()));
  }

  async get(id: unknown, manager: EntityManager = this.db.manager): Promise<WorkspaceView> {
    const row = typeof id === 'string' ? await findWorkspaceRow(manager, id) : undefined;
    if (!row) throw new DomainError('not_found', `Workspace ${String(id)} not found`);
    return toView(row);
  }

  async changePlan(input: ChangePlanInput): Promise<WorkspaceView> {
    return this.change(input.workspace, (tx) => setPlan(tx, input.workspace, input.plan));
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
    return this.change(input.workspace, (tx) => setOverrides(tx, input.workspace, overrides));
  }

  /**
   * A plan or limits change, its `plan.changed` event and its plan facts (ADR 0019), published
   * to the key cache.
   */
  private async change(
    workspaceId: string,
    update: (tx: EntityManager) => Promise<unknown>,
  ): Promise<WorkspaceView> {
    return this.publisher.change(workspaceId, async (tx) => {
      const previous = await this.get(workspaceId, tx);
      await update(tx);
      const next = await this.get(workspaceId, tx);
      // The facts first (a smaller id, so published first): the worker stores them before it
      // fans out this plan.changed, which a downgrade must not deliver.
      await this.statePlanFacts(tx, next);
      await this.outbox.write(tx, workspaceId, 'plan.changed', {
        workspace: { id: next.id, name: next.name },
        previous: { plan: previous.plan, limits: previous.limits },
        current: { plan: next.plan, limits: next.limits },
      });
      return next;
    });
  }
}

/**
 * The workspace's plan facts, for the apps that keep a copy (the register, the worker): written
 * to the outbox in the transaction of the change. `as_of` is the clock when they are stated,
 * under the workspace's row lock (or its insert), so a later change always states a later time.
 */
export function planFactsOf(view: WorkspaceView, asOf: Date): WorkspacePlanFacts {
  return {
    workspace_id: view.id,
    plan: view.plan,
    api_access: view.api_access,
    limits: view.limits,
    as_of: asOf.toISOString(),
  };
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
