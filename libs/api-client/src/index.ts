import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths, webhooks } from './schema';

export type CustodianClient = Client<paths>;

/**
 * A typed client of the public API: paths, parameters, bodies and responses come from
 * schema.d.ts, which `npm run openapi` generates from the OpenAPI document.
 */
export function createCustodianClient(baseUrl: string, apiKey: string): CustodianClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
}
