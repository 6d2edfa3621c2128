import type { ActivityPage, ActivityQuery } from '@custodian/console-client';
import { client, send } from './client';

export function listActivity(query: ActivityQuery): Promise<ActivityPage> {
  return send(
    'see the activity',
    client.GET('/console/api/activity', { params: { query } }),
    'workspace.view',
  );
}
