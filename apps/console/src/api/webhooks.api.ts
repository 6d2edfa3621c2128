import type {
  CreatedEndpoint,
  Endpoint,
  EndpointChanges,
  EndpointInput,
  EventModule,
  TestDelivery,
  WebhookSecret,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listEventModules(): Promise<EventModule[]> {
  return send('see the event keys', client.GET('/console/api/events'), 'webhooks.view');
}

export function listEndpoints(): Promise<Endpoint[]> {
  return send('see webhooks', client.GET('/console/api/webhooks'), 'webhooks.view');
}

export function getEndpoint(id: string): Promise<Endpoint> {
  return send('see webhooks', client.GET('/console/api/webhooks/{id}', byId(id)), 'webhooks.view');
}

export function createEndpoint(input: EndpointInput): Promise<CreatedEndpoint> {
  return send(
    'add webhook endpoints',
    client.POST('/console/api/webhooks', { body: input }),
    'webhooks.manage',
  );
}

export function updateEndpoint(id: string, changes: EndpointChanges): Promise<Endpoint> {
  return send(
    'change webhook endpoints',
    client.PATCH('/console/api/webhooks/{id}', { ...byId(id), body: changes }),
    'webhooks.manage',
  );
}

export function deleteEndpoint(id: string): Promise<Endpoint> {
  return send(
    'delete webhook endpoints',
    client.DELETE('/console/api/webhooks/{id}', byId(id)),
    'webhooks.manage',
  );
}

export function revealSecret(id: string): Promise<WebhookSecret> {
  return send(
    'reveal signing secrets',
    client.POST('/console/api/webhooks/{id}/secret/reveal', byId(id)),
    'webhooks.secrets',
  );
}

export function rotateSecret(id: string, overlapHours: number): Promise<WebhookSecret> {
  return send(
    'rotate signing secrets',
    client.POST('/console/api/webhooks/{id}/secret/rotate', {
      ...byId(id),
      body: { overlap_hours: overlapHours },
    }),
    'webhooks.secrets',
  );
}

export function sendTestPing(id: string): Promise<TestDelivery> {
  return send(
    'send test pings',
    client.POST('/console/api/webhooks/{id}/test', byId(id)),
    'webhooks.manage',
  );
}
