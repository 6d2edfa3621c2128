import { Asset, AssetPage, AssetSummary } from './assets';
import { ErrorBody } from './errors';
import { Member } from './members';
import { Person, PersonPage, PersonSummary } from './people';
import { Ping } from './workspace';

export {
  ASSET_EXAMPLE,
  Asset,
  AssetPage,
  AssetSummary,
  CategoryName,
  Custody,
  DeletedAsset,
  SCAN_MATCHES,
  ScannedAsset,
  type ScanMatch,
} from './assets';
export { ErrorBody } from './errors';
export * from './event-catalog';
export * from './event-data';
export * from './event-envelope';
export { Health, HealthCheck, HealthDetails } from './health';
export { Invitation, MEMBER_EXAMPLE, Member, RenewedInvitation } from './members';
export { pageOf } from './page';
export { PERSON_EXAMPLE, Holding, Person, PersonPage, PersonSummary } from './people';
export { CategoryRef, DepartmentRef, LocationRef, PersonRef, type NamedRef } from './refs';
export { Ping, PingKey, PingWorkspace } from './workspace';

/**
 * The response bodies of the REST API, by component name (components.schemas).
 *
 * | component      | route and status                                                     |
 * |----------------|----------------------------------------------------------------------|
 * | Error          | every 4xx/5xx                                                         |
 * | Ping           | GET /ping 200                                                         |
 * | AssetPage      | GET /assets 200 with `page`                                           |
 * | AssetSummary   | GET /assets 200 without `page`: an array of them                      |
 * | Asset          | GET /assets/{id} 200, POST /assets 201, PATCH /assets/{id} 200        |
 * | PersonPage     | GET /people 200 with `page`                                           |
 * | PersonSummary  | GET /people 200 without `page`: an array of them                      |
 * | Person         | GET /people/{id} 200, POST /people 201, PATCH /people/{id} 200        |
 * | Member         | GET /members 200 (an array of them), POST /members 201,               |
 * |                | PATCH /members/{userId} 200, POST /invitations/accept 200             |
 *
 * Not components: GET /invitations/accept answers an HTML page (text/html); GET /health (no
 * `/api/v1` prefix, not in the document) answers Health.
 */
export const API_MODELS = {
  Error: ErrorBody,
  Ping,
  Asset,
  AssetSummary,
  AssetPage,
  Person,
  PersonSummary,
  PersonPage,
  Member,
} as const;
