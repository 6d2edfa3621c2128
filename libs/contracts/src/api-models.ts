import { Asset, AssetPage, AssetSummary } from './assets/asset.views';
import { Member } from './members/member.views';
import { Person, PersonPage, PersonSummary } from './people/person.views';
import { ErrorBody } from './shared/error-body';
import { Ping } from './workspaces/workspace.views';

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
