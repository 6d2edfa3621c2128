import { Type, type TSchema } from '@sinclair/typebox';
import { ASSET_PAGE_SIZE_MAX, ASSET_STATUSES, ASSET_UNPAGED_MAX } from '../assets';
import { NamedRefOf, Nullable, PrefixedId, StringEnum, Timestamp } from './common';

/** `{id, name}` of any record; the type behind `NamedRef`. */
export const NamedRefSchema = Type.Object(
  { id: Type.String(), name: Type.String() },
  { additionalProperties: false },
);

export const AssetStatusSchema = StringEnum(ASSET_STATUSES, {
  description:
    'Status of the asset. Accepted on write and in the list filter: ' + ASSET_STATUSES.join(', '),
});

const assetFields = {
  id: PrefixedId('ast', 'Id of the asset, scoped to the workspace: `ast_` + a ULID.'),
  name: Type.String({ description: 'Name of the asset (1-200 characters).' }),
  sku: Nullable(Type.String(), { description: 'Stock-keeping unit, or null.' }),
  status: AssetStatusSchema,
  brand: Nullable(Type.String(), { description: 'Brand, or null.' }),
  model: Nullable(Type.String(), { description: 'Model, or null.' }),
  serial_number: Nullable(Type.String(), { description: 'Serial number, or null.' }),
  assigned_to: Nullable(NamedRefOf('per', 'person'), {
    description: 'The person the asset is checked out to (`{id, name}`), or null.',
  }),
  updated_at: Timestamp('When the asset last changed.'),
};

const EXAMPLE_ASSET_ID = 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w';
const EXAMPLE_PERSON = { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' };

const assetExample = {
  id: EXAMPLE_ASSET_ID,
  name: 'MacBook Pro 14"',
  sku: 'MBP14-M3-512',
  status: 'active',
  brand: 'Apple',
  model: 'MacBook Pro 14 (M3, 2023)',
  serial_number: 'C02XK1ZXJGH7',
  asset_tag: 'AT-000042',
  category: { id: 'cat_01jd8x1a2b3c4d5e6f7g8h9j0k', name: 'Laptops' },
  location: { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0x', name: 'Berlin office' },
  assigned_to: EXAMPLE_PERSON,
  custody: { person: EXAMPLE_PERSON, since: '2026-11-22T10:15:00.000Z' },
  custom_fields: { purchase_date: '2026-03-01', warranty_years: 3 },
  created_at: '2026-03-02T08:00:00.000Z',
  updated_at: '2026-11-22T10:15:00.000Z',
};

/** The same asset as a list shows it: fewer fields, the category by name only. */
const assetSummaryExample = {
  id: assetExample.id,
  name: assetExample.name,
  sku: assetExample.sku,
  status: assetExample.status,
  brand: assetExample.brand,
  model: assetExample.model,
  serial_number: assetExample.serial_number,
  category: { name: assetExample.category.name },
  assigned_to: assetExample.assigned_to,
  updated_at: assetExample.updated_at,
};

/** The fields a list and the single fetch show alike. */
const listedFields = {
  id: assetFields.id,
  name: assetFields.name,
  sku: assetFields.sku,
  status: assetFields.status,
  brand: assetFields.brand,
  model: assetFields.model,
  serial_number: assetFields.serial_number,
};

/** An asset as list results show it (spec 2.1). */
export const AssetSummarySchema = Type.Object(
  {
    ...listedFields,
    category: Nullable(
      Type.Object(
        { name: Type.String({ description: 'Name of the category.' }) },
        { additionalProperties: false },
      ),
      { description: 'The category (`{name}` in lists), or null.' },
    ),
    assigned_to: assetFields.assigned_to,
    updated_at: assetFields.updated_at,
  },
  {
    additionalProperties: false,
    title: 'AssetSummary',
    description:
      'An asset as `GET /assets` lists it. The single fetch (`Asset`) adds asset_tag, location, ' +
      'custody, custom_fields and created_at, and gives the category its id.',
    examples: [assetSummaryExample],
  },
);

/**
 * An asset as the single fetch shows it; also the body of the create and update responses and
 * the `data` of the asset.* events.
 */
export const AssetSchema = Type.Object(
  {
    ...listedFields,
    asset_tag: Type.String({
      description:
        'Asset tag, unique in the workspace; generated (`AT-000001`, ...) when not given.',
    }),
    category: Nullable(NamedRefOf('cat', 'category'), {
      description: 'The category (`{id, name}`), or null. Categories are created on first use.',
    }),
    location: Nullable(NamedRefOf('loc', 'location'), {
      description: 'The location (`{id, name}`), or null. Locations are created on first use.',
    }),
    assigned_to: assetFields.assigned_to,
    custody: Nullable(
      Type.Object(
        {
          person: NamedRefOf('per', 'person holding the asset'),
          since: Timestamp('When the asset was checked out to this person.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Who holds the asset and since when, or null when it is not checked out.' },
    ),
    custom_fields: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      description:
        "Values of the workspace's custom fields, by key (text, number, boolean, " +
        '`YYYY-MM-DD` date or select option). Keys without a value are absent.',
    }),
    created_at: Timestamp('When the asset was created.'),
    updated_at: assetFields.updated_at,
  },
  {
    additionalProperties: false,
    title: 'Asset',
    description:
      'An asset as `GET /assets/{id}` returns it; also the body of `POST /assets` (201) and ' +
      '`PATCH /assets/{id}` (200), and the `data` of the asset.* webhook events.',
    examples: [assetExample],
  },
);

/** `{data, page, pageSize, total}` of a list route asked for a `page`. */
export function pageSchema<T extends TSchema>(
  item: T,
  options: { title: string; description: string; examples?: unknown[] },
) {
  return Type.Object(
    {
      data: Type.Array(item, { description: 'The items of this page, in list order.' }),
      page: Type.Integer({ minimum: 1, description: 'The page number asked for (1-based).' }),
      pageSize: Type.Integer({
        minimum: 1,
        maximum: ASSET_PAGE_SIZE_MAX,
        description: `Items per page (1-${ASSET_PAGE_SIZE_MAX}, default 50).`,
      }),
      total: Type.Integer({ minimum: 0, description: 'Number of items matching the query.' }),
    },
    { additionalProperties: false, ...options },
  );
}

export const AssetPageSchema = pageSchema(AssetSummarySchema, {
  title: 'AssetPage',
  description:
    'A page of assets: the body of `GET /assets` when `page` is given. Walk the pages until ' +
    'page * pageSize >= total.',
  examples: [{ data: [assetSummaryExample], page: 1, pageSize: 50, total: 1 }],
});

export const AssetListSchema = Type.Array(AssetSummarySchema, {
  maxItems: ASSET_UNPAGED_MAX,
  title: 'AssetList',
  description: `The body of \`GET /assets\` without \`page\`: a bare array of at most ${ASSET_UNPAGED_MAX} assets (kept for older callers).`,
  examples: [[assetSummaryExample]],
});

export const ASSET_EXAMPLE = assetExample;
