// The webhooks domain's server state: endpoints, the event keys, and each endpoint's last
// deliveries; its writes (endpoints, secrets, test pings).
import type { EndpointChanges, EndpointInput } from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { listDeliveries } from '../api/deliveries.api';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  listEventModules,
  revealSecret,
  rotateSecret,
  sendTestPing,
  updateEndpoint,
} from '../api/webhooks.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';
import { subscribableModules } from './event-selection';

/** How many of an endpoint's deliveries its page lists. */
const RECENT = 10;

export const endpointKeys = {
  list: () => [QUERY_ROOT.webhooks, 'list'] as const,
  /** The event keys an endpoint can subscribe to, by module. */
  events: () => [QUERY_ROOT.webhooks, 'events'] as const,
  detail: (id: string) => [QUERY_ROOT.webhooks, 'detail', id] as const,
  /** Under the endpoint: invalidating the endpoint reads its deliveries again too. */
  recentDeliveries: (id: string) => [QUERY_ROOT.webhooks, 'detail', id, 'deliveries'] as const,
};

export const endpointQueries = {
  list: () => queryOptions({ queryKey: endpointKeys.list(), queryFn: () => listEndpoints() }),
  // What an endpoint can subscribe to (and the delivery log filter by): the catalog's
  // console-only notices are left out.
  events: () =>
    queryOptions({
      queryKey: endpointKeys.events(),
      queryFn: async () => subscribableModules(await listEventModules()),
    }),
  detail: (id: string) =>
    queryOptions({ queryKey: endpointKeys.detail(id), queryFn: () => getEndpoint(id) }),
  recentDeliveries: (id: string) =>
    queryOptions({
      queryKey: endpointKeys.recentDeliveries(id),
      queryFn: () => listDeliveries({ endpoint: id, limit: RECENT }),
    }),
};

/** What a write to an endpoint can change: endpoints, the delivery log, the activity. */
const CHANGED_BY_ENDPOINT_WRITES = [
  QUERY_ROOT.webhooks,
  QUERY_ROOT.deliveries,
  QUERY_ROOT.activity,
] as const;

/** Adds an endpoint: the answer has its signing secret, shown once. */
export function useCreateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EndpointInput) => createEndpoint(input),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ENDPOINT_WRITES),
  });
}

/** Changes an endpoint: the form, and enabling or disabling it. */
export function useUpdateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: EndpointChanges }) =>
      updateEndpoint(id, changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ENDPOINT_WRITES),
  });
}

/** Deletes an endpoint: it leaves the list, and its deliveries leave the log. */
export function useDeleteEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteEndpoint(id),
    onSuccess: (_deleted, id) => {
      // Its page must not read it again (a 404) while the list is shown.
      client.removeQueries({ queryKey: endpointKeys.detail(id) });
      return invalidateRoots(client, CHANGED_BY_ENDPOINT_WRITES);
    },
  });
}

/** A test ping: a new delivery in the log and in the endpoint's recent ones. */
export function useSendTestPing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendTestPing(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ENDPOINT_WRITES),
  });
}

/** Shows the secret; nothing cached changes. */
export function useRevealSecret() {
  return useMutation({ mutationFn: (id: string) => revealSecret(id) });
}

/** The endpoint now has a rotation under way (until when the old secret also signs). */
export function useRotateSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, overlapHours }: { id: string; overlapHours: number }) =>
      rotateSecret(id, overlapHours),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.webhooks, QUERY_ROOT.activity]),
  });
}
