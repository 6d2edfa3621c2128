import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsString,
  ValidateNested,
} from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import { TextLength } from '../fields/text-length';
import {
  EnumField,
  Field,
  InstantField,
  IntField,
  ListField,
  NestedField,
  TextField,
} from '../fields/field.decorators';
import { CallerMessage } from '../rpc/messages';
import { CATEGORY_BY_ID, CATEGORY_BY_NAME } from '../categories/category.fields';
import { LOCATION_BY_ID, LOCATION_BY_NAME } from '../locations/location.fields';
import { ASSET_STATUSES, type AssetStatus } from './asset.constants';

/** At most this many assets in one bulk request. */
export const BULK_ASSET_IDS_MAX = 1_000;
/**
 * Assets applied per transaction: a chunk's rows (and, once it writes, the workspace's
 * counters row) stay locked until it commits, so other writes wait at most one chunk.
 */
export const BULK_CHUNK_SIZE = 100;
/**
 * How long the gateway waits for a bulk request (its register timeout is for one record):
 * 1,000 check-outs take about 2 s on a quiet register.
 */
export const BULK_TIMEOUT_MS = 30_000;

export const BULK_ACTIONS = ['update', 'check_out', 'check_in', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** What became of one id: changed, already so, no such asset, or refused by a rule. */
export const BULK_OUTCOMES = ['updated', 'unchanged', 'not_found', 'refused'] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

/** The fields of `update`, of which a request gives exactly one. */
export const BULK_UPDATE_FIELDS = [
  'status',
  'location_id',
  'location',
  'category_id',
  'category',
] as const;

const CLEARABLE = { optional: true, nullable: true } as const;

/**
 * Body of POST /assets/bulk: the assets and one change for all of them. Which fields go with
 * which action is checked by the register (before anything is written), naming the field.
 */
export class BulkAssetInput {
  @Field(
    {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 64 },
      minItems: 1,
      maxItems: BULK_ASSET_IDS_MAX,
      uniqueItems: true,
    },
    [
      IsArray({ message: 'ids must be a list of asset ids' }),
      ArrayMinSize(1, { message: 'ids must name at least one asset' }),
      ArrayMaxSize(BULK_ASSET_IDS_MAX, {
        message: `ids must name at most ${BULK_ASSET_IDS_MAX} assets`,
      }),
      ArrayUnique({ message: 'ids must name each asset once' }),
      IsString({ each: true, message: 'each of ids must be an asset id (ast_...)' }),
      TextLength(1, 64, { each: true, message: 'each of ids must be an asset id (ast_...)' }),
    ],
    {
      description:
        `The assets, 1 to ${BULK_ASSET_IDS_MAX}, each once. An id of no asset of the ` +
        'workspace is answered `not_found` in the results, not refused.',
    },
  )
  ids!: string[];

  @EnumField(BULK_ACTIONS, {
    description:
      '`update`: set one field (exactly one of `status`, `location_id` / `location`, ' +
      '`category_id` / `category`); `check_out`: to `person_id` (with `due_at` if given); ' +
      '`check_in`; `delete`: move to the bin.',
  })
  action!: BulkAction;

  @EnumField(ASSET_STATUSES, { optional: true, description: 'With `update`: the new status.' })
  status?: AssetStatus;

  @TextField({
    min: 1,
    max: 64,
    ...CLEARABLE,
    description: `With \`update\`: ${LOCATION_BY_ID}`,
  })
  location_id?: string | null;

  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    ...CLEARABLE,
    description: `With \`update\`: ${LOCATION_BY_NAME}`,
  })
  location?: string | null;

  @TextField({
    min: 1,
    max: 64,
    ...CLEARABLE,
    description: `With \`update\`: ${CATEGORY_BY_ID}`,
  })
  category_id?: string | null;

  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    ...CLEARABLE,
    description: `With \`update\`: ${CATEGORY_BY_NAME}`,
  })
  category?: string | null;

  @TextField({
    min: 1,
    max: 64,
    optional: true,
    description: 'With `check_out` (required): the active person the assets go to.',
  })
  person_id?: string;

  @InstantField({
    optional: true,
    description:
      'With `check_out`: when the assets are due back, in the future (as `due_at` of PATCH).',
  })
  due_at?: string;
}

/** One id's outcome, in the order of the request's `ids`. */
@ContractSchema({ name: 'BulkAssetResult' })
export class BulkAssetResult {
  @TextField({ description: 'The id as sent.' }) id!: string;

  @EnumField(BULK_OUTCOMES, {
    description:
      '`updated`: changed now (for `delete`: moved to the bin), with its events; `unchanged`: ' +
      'it already was so (nothing written, no event); `not_found`: no asset of the ' +
      'workspace has this id; `refused`: a rule of the single-asset route refused it ' +
      '(`status`, `message`).',
  })
  outcome!: BulkOutcome;

  @IntField({
    optional: true,
    description:
      'For `not_found` and `refused`: the HTTP status the single-asset route would answer ' +
      '(404, 409, 400).',
  })
  status?: number;

  @TextField({
    optional: true,
    description: 'For `not_found` and `refused`: why, as the single-asset route words it.',
  })
  message?: string;
}

@ContractSchema({ name: 'BulkAssetCounts' })
export class BulkAssetCounts {
  @IntField({ min: 0 }) updated!: number;
  @IntField({ min: 0 }) unchanged!: number;
  @IntField({ min: 0 }) not_found!: number;
  @IntField({ min: 0 }) refused!: number;
}

/** The answer of POST /assets/bulk: one result per id, and their counts. */
@ContractSchema({
  name: 'BulkAssetReply',
  examples: [
    {
      action: 'update',
      results: [
        { id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2w', outcome: 'updated' },
        { id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2x', outcome: 'unchanged' },
        {
          id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2y',
          outcome: 'not_found',
          status: 404,
          message: 'Asset ast_01jd8x2b6c8e0g2j4m6p8r0t2y not found',
        },
      ],
      counts: { updated: 1, unchanged: 1, not_found: 1, refused: 0 },
    },
  ],
})
export class BulkAssetReply {
  @EnumField(BULK_ACTIONS, { description: 'The action applied.' }) action!: BulkAction;
  @ListField(BulkAssetResult, {
    maxItems: BULK_ASSET_IDS_MAX,
    description: 'One per id, in the order sent.',
  })
  results!: BulkAssetResult[];
  @NestedField(BulkAssetCounts, { description: 'How many results of each outcome.' })
  counts!: BulkAssetCounts;
}

export class BulkAssetsMessage extends CallerMessage {
  @ValidateNested() @Type(() => BulkAssetInput) body!: BulkAssetInput;
}
