import type {
  AssetRequest,
  AssetRequestApproval,
  AssetRequestInput,
  AssetRequestListQuery,
  AssetRequestPage,
  AssetRequestRejection,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listRequests(query: AssetRequestListQuery): Promise<AssetRequestPage> {
  return send(
    'see asset requests',
    client.GET('/console/api/requests', { params: { query } }),
    'requests.view',
  );
}

export function getRequest(id: string): Promise<AssetRequest> {
  return send(
    'see asset requests',
    client.GET('/console/api/requests/{id}', byId(id)),
    'requests.view',
  );
}

export function createRequest(input: AssetRequestInput): Promise<AssetRequest> {
  return send(
    'ask for assets',
    client.POST('/console/api/requests', { body: input }),
    'requests.view',
  );
}

export function approveRequest(id: string, approval: AssetRequestApproval): Promise<AssetRequest> {
  return send(
    'approve asset requests',
    client.POST('/console/api/requests/{id}/approve', { ...byId(id), body: approval }),
    'requests.decide',
  );
}

export function rejectRequest(id: string, rejection: AssetRequestRejection): Promise<AssetRequest> {
  return send(
    'reject asset requests',
    client.POST('/console/api/requests/{id}/reject', { ...byId(id), body: rejection }),
    'requests.decide',
  );
}
