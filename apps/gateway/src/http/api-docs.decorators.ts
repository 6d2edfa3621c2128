import {
  ASSET_PAGE_SIZE_DEFAULT,
  ASSET_PAGE_SIZE_MAX,
  ASSET_UNPAGED_MAX,
  type ContractClass,
} from '@custodian/contracts';
import { applyDecorators } from '@nestjs/common';
import {
  ApiExtension,
  ApiExtraModels,
  ApiOkResponse,
  ApiParam,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';

/** Marks an operation with the error statuses it adds to the ones every keyed route has. */
export const ROUTE_ERRORS = 'x-custodian-errors';

/**
 * The error statuses a route answers beyond the common ones (401, 403, 429, ... are added to
 * every keyed route when the document is built, with the shared Error responses).
 */
export const ApiErrors = (...statuses: number[]): MethodDecorator =>
  ApiExtension(ROUTE_ERRORS, statuses);

/** GET /assets and GET /people: the page envelope with `page`, else a bare array. */
export function ApiPageOrListResponse(page: ContractClass, item: ContractClass): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(page, item),
    ApiOkResponse({
      description: 'The page envelope when `page` is sent, else a bare array.',
      schema: {
        oneOf: [
          { $ref: getSchemaPath(page) },
          { type: 'array', items: { $ref: getSchemaPath(item) }, maxItems: ASSET_UNPAGED_MAX },
        ],
      },
    }),
  );
}

export const ApiIdParam = (name: string, what: string): MethodDecorator =>
  ApiParam({ name, required: true, description: `The ${what}'s id`, schema: { type: 'string' } });

/**
 * `location_id` and `include_children` of GET /assets and GET /people, and `category_id` of
 * GET /assets (`category: true`).
 */
/** `updated_since` on the assets and people lists (issue 35). */
export function ApiUpdatedSince(): MethodDecorator {
  return ApiQuery({
    name: 'updated_since',
    required: false,
    description:
      'Only those changed at or after this instant (ISO 8601 with its offset, up to ' +
      'microseconds), in `updated_at`, then `id` order (`sort` may only say `updated_at`). To ' +
      "keep a copy in step: ask page 1, then again with the last row's `updated_at`, skipping " +
      'ids already seen at that instant. Records moved to the bin leave the list: follow ' +
      '`asset.deleted` in the change feed (`GET /events`) for those.',
    schema: { type: 'string', format: 'date-time' },
  });
}

export function ApiPlaceFilters(options: { category: boolean }): MethodDecorator {
  const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
  const decorators = [
    ApiQuery({
      name: 'location_id',
      required: false,
      description:
        'Only those at this location (`GET /locations`); with `include_children=true`, also ' +
        'those anywhere under it. An id of no place of the workspace matches nothing.',
      schema: id,
    }),
    ApiQuery({
      name: 'include_children',
      required: false,
      description: 'With `location_id`: include the places under it, at any depth.',
      schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
    }),
  ];
  if (options.category) {
    decorators.push(
      ApiQuery({
        name: 'category_id',
        required: false,
        description: 'Only those of this category (`GET /categories`).',
        schema: id,
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** The query of GET /assets and GET /people (register's parseListQuery reads exactly these). */
export function ApiListQuery(statuses: readonly string[], searchWhat: string): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      description:
        '1-based page number. When present the response is the paginated envelope ' +
        '`{data, page, pageSize, total}`; without it a bare array (kept for older callers) of ' +
        'the first items: at most 10,000, and no more than fit in 15 MiB of JSON. New clients ' +
        'always send `page`.',
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
