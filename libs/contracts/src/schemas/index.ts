import { AssetPageSchema, AssetSchema, AssetSummarySchema } from './assets';
import { ErrorSchema } from './errors';
import { MemberSchema } from './members';
import { PersonPageSchema, PersonSchema, PersonSummarySchema } from './people';
import { PingSchema } from './workspace';

export * from './assets';
export * from './common';
export * from './errors';
export * from './events';
export * from './health';
export * from './members';
export * from './people';
export * from './workspace';

/**
 * The response bodies of the REST API, by OpenAPI component name (components.schemas). Each is
 * self-contained (no `$ref`), draft 2020-12 / OpenAPI 3.1 JSON Schema.
 *
 * | component      | route and status                                                     |
 * |----------------|----------------------------------------------------------------------|
 * | Error          | every 4xx/5xx                                                         |
 * | Ping           | GET /ping 200                                                         |
 * | AssetPage      | GET /assets 200 with `page`                                           |
 * | AssetSummary   | GET /assets 200 without `page`: an array of them (AssetListSchema)    |
 * | Asset          | GET /assets/{id} 200, POST /assets 201, PATCH /assets/{id} 200        |
 * | PersonPage     | GET /people 200 with `page`                                           |
 * | PersonSummary  | GET /people 200 without `page`: an array of them (PersonListSchema)   |
 * | Person         | GET /people/{id} 200, POST /people 201, PATCH /people/{id} 200        |
 * | Member         | GET /members 200 (an array of them, MemberListSchema),                |
 * |                | POST /members 201, PATCH /members/{userId} 200,                       |
 * |                | POST /invitations/accept 200                                          |
 *
 * Not components: GET /invitations/accept answers an HTML page (text/html); GET /health (no
 * `/api/v1` prefix, not in the document) answers HealthSchema; the bare-array list bodies are
 * AssetListSchema, PersonListSchema and MemberListSchema, for tests.
 */
export const API_SCHEMAS = {
  Error: ErrorSchema,
  Ping: PingSchema,
  Asset: AssetSchema,
  AssetSummary: AssetSummarySchema,
  AssetPage: AssetPageSchema,
  Person: PersonSchema,
  PersonSummary: PersonSummarySchema,
  PersonPage: PersonPageSchema,
  Member: MemberSchema,
} as const;

export type ApiSchemaName = keyof typeof API_SCHEMAS;
