import type { ConsoleKey, CreatedConsoleKey, KeyScope } from '@custodian/console-client';
import { client, send } from './client';

export function listKeys(): Promise<ConsoleKey[]> {
  return send('see API keys', client.GET('/console/api/keys'), 'keys.view');
}

export function createKey(name: string, scope: KeyScope): Promise<CreatedConsoleKey> {
  return send(
    'create API keys',
    client.POST('/console/api/keys', { body: { name, scope } }),
    'keys.manage',
  );
}

export function revokeKey(id: string): Promise<ConsoleKey> {
  return send(
    'revoke API keys',
    client.DELETE('/console/api/keys/{id}', { params: { path: { id } } }),
    'keys.manage',
  );
}
