import {
  GatewayAdminPatterns,
  WorkerAdminPatterns,
  type CreatedKeyView,
  type CreatedWebhookView,
  type KeyScope,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { RABBITMQ_URL, type BenchEnv } from './processes';

export interface BenchTenant {
  workspace: WorkspaceView;
  key: CreatedKeyView;
  endpoint?: CreatedWebhookView;
}

/**
 * An enterprise workspace with its limits lifted (the benches measure serving, not limiting)
 * and a key; with `webhookUrl`, also an endpoint subscribed to every event.
 */
export async function createTenant(
  env: BenchEnv,
  name: string,
  options: { scope?: KeyScope; webhookUrl?: string } = {},
): Promise<BenchTenant> {
  const client = (queue: string, serviceName: string) =>
    new RmqRpcClient({
      url: RABBITMQ_URL,
      queue,
      timeoutMs: 10_000,
      connectionName: 'custodian-bench',
      serviceName,
    });
  const admin = client(env.ADMIN_QUEUE, 'gateway');
  await admin.connect();
  try {
    const workspace = await admin.request<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name,
      plan: 'enterprise',
    });
    await admin.request(GatewayAdminPatterns.workspaceLimits, {
      workspace: workspace.id,
      rate_per_minute: '100000000',
      monthly_quota: 'unlimited',
    });
    const key = await admin.request<CreatedKeyView>(GatewayAdminPatterns.keyCreate, {
      workspace: workspace.id,
      scope: options.scope ?? 'read',
    });
    if (!options.webhookUrl) return { workspace, key };
    const worker = client(env.WORKER_ADMIN_QUEUE, 'webhook-worker');
    await worker.connect();
    try {
      const endpoint = await worker.request<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
        workspace: workspace.id,
        url: options.webhookUrl,
        events: '*',
      });
      return { workspace, key, endpoint };
    } finally {
      await worker.close();
    }
  } finally {
    await admin.close();
  }
}
