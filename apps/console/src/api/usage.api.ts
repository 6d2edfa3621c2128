import type { PlanUsage } from '@custodian/console-client';
import { client, send } from './client';

export function getUsage(): Promise<PlanUsage> {
  return send('see the plan and usage', client.GET('/console/api/usage'), 'workspace.view');
}
