import {
  ASSET_PAGE_SIZE_DEFAULT,
  ASSET_PAGE_SIZE_MAX,
  CreateAssetInput,
  CreatePersonInput,
  InviteMemberInput,
  UpdateAssetInput,
  UpdateMemberInput,
  UpdatePersonInput,
  type API_SCHEMAS,
} from '@custodian/contracts';
import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiExtension,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
} from '@nestjs/swagger';

/** A component of the document: a response schema of libs/contracts or a request body DTO. */
export type ComponentName = keyof typeof API_SCHEMAS | RequestBodyName;

/** The DTOs the register validates request bodies with; their metadata becomes the schemas. */
export const REQUEST_BODIES = {
  CreateAssetInput,
  UpdateAssetInput,
  CreatePersonInput,
  UpdatePersonInput,
  InviteMemberInput,
  UpdateMemberInput,
};
export type RequestBodyName = keyof typeof REQUEST_BODIES;

export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

type ResponseSpec = ComponentName | { arrayOf: ComponentName } | { oneOf: ResponseSpec[] };

function schemaOf(spec: ResponseSpec): Record<string, unknown> {
  if (typeof spec === 'string') return ref(spec);
  if ('arrayOf' in spec) return { type: 'array', items: ref(spec.arrayOf) };
  return { oneOf: spec.oneOf.map(schemaOf) };
}

/** Marks an operation that uses the listed error statuses beyond the ones every keyed route has. */
export const ROUTE_ERRORS = 'x-custodian-errors';

/**
 * One route's documentation, next to its handler: what it does, what it answers (the schemas
 * come from libs/contracts, the request bodies from the class-validator DTOs the register
 * validates with), and which error statuses it adds to the common ones (401, 403, 429, ...
 * added to every keyed route when the document is built).
 */
export function ApiRoute(options: {
  operationId: string;
  summary: string;
  description?: string;
  status: number;
  response: ResponseSpec;
  responseDescription?: string;
  body?: RequestBodyName;
  errors?: number[];
}): MethodDecorator {
  const schema = schemaOf(options.response);
  const decorators = [
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      description: options.description,
    }),
    ApiResponse({
      status: options.status,
      description:
        options.responseDescription ??
        (options.status === 201 ? 'Created: the new resource.' : 'OK.'),
      schema,
    }),
    ApiExtension(ROUTE_ERRORS, options.errors ?? []),
  ];
  if (options.body) {
    decorators.push(ApiBody({ required: true, schema: ref(options.body) }));
  }
  return applyDecorators(...decorators);
}

export const ApiIdParam = (name: string, what: string): MethodDecorator =>
  ApiParam({ name, required: true, description: `The ${what}'s id`, schema: { type: 'string' } });

/** The query of GET /assets and GET /people (register's parseListQuery reads exactly these). */
export function ApiListQuery(statuses: readonly string[], searchWhat: string): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      description:
        '1-based page number. When present the response is the paginated envelope ' +
        '`{data, page, pageSize, total}`; without it a bare array (at most 10,000 items, kept ' +
        'for older callers). New clients always send `page`.',
      schema: { type: 'integer', minimum: 1, maximum: 1_000_000_000 },
    }),
    ApiQuery({
      name: 'pageSize',
      required: false,
      description: 'Items per page.',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: ASSET_PAGE_SIZE_MAX,
        default: ASSET_PAGE_SIZE_DEFAULT,
      },
    }),
    ApiQuery({
      name: 'status',
      required: false,
      description: 'Only items with this status.',
      schema: { type: 'string', enum: [...statuses] },
    }),
    ApiQuery({
      name: 'search',
      required: false,
      description: `Case-insensitive substring match on ${searchWhat}.`,
      schema: { type: 'string', maxLength: 200 },
    }),
  );
}
