import type { EntityManager } from 'typeorm';

/**
 * How a change to a workspace's plan or limits reaches the keys cached for it: `change` runs in
 * a transaction holding the workspace's row lock and returns once the committed state is
 * published (or queued for repair). The shared key cache implements it
 * (keys/access-publisher.ts, provided under this class by ApiKeysModule); declared here so
 * that workspaces, which keys are built on, import nothing from keys.
 */
export abstract class WorkspaceChangePublisher {
  abstract change<T>(workspaceId: string, change: (tx: EntityManager) => Promise<T>): Promise<T>;
}
