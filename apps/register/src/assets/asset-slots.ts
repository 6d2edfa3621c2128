import { DomainError, type CallerContext } from '@custodian/contracts';
import type { OutboxWriter } from '@custodian/messaging';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import type { EntityManager } from 'typeorm';
import type { WorkspaceCounters } from '../counters/workspace-counters';

/**
 * Refuses a write that would add an asset past the plan's limit (a create, a restore). The
 * caller holds the counters row's lock (lockWorkspaceCounters), so the count is exact.
 */
export function assertAssetSlot(caller: CallerContext, counter: WorkspaceCounters): void {
  if (wouldExceed(caller.limits.assets, counter.asset_count)) {
    throw new DomainError(
      'limit_reached',
      limitReachedMessage('assets', caller.limits.assets ?? 0, caller.plan),
    );
  }
}

/**
 * `plan.limit_reached` when this write used the last slot (`countAfter` is the limit): one
 * event per crossing, in the write's transaction.
 */
export async function noteLastAssetSlot(
  outbox: OutboxWriter,
  tx: EntityManager,
  caller: CallerContext,
  countAfter: number,
): Promise<void> {
  if (caller.limits.assets === null || countAfter !== caller.limits.assets) return;
  await outbox.write(tx, caller.workspaceId, 'plan.limit_reached', {
    workspace: { id: caller.workspaceId },
    plan: caller.plan,
    limit: 'assets',
    value: caller.limits.assets,
  });
}
