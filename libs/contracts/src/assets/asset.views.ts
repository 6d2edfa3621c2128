import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  DateField,
  EnumField,
  IdField,
  ListField,
  NestedField,
  OpenObjectField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { Custody } from '../custody/custody.views';
import { HeldSeat } from '../licenses/license.views';
import { pageOf, type Page } from '../shared/paging';
import { CategoryRef, LocationRef, PersonRef, type NamedRef } from '../shared/refs';
import {
  ASSET_CONDITIONS,
  ASSET_STATUSES,
  SCAN_MATCHES,
  type AssetCondition,
  type AssetStatus,
  type ScanMatch,
} from './asset.constants';

const EXAMPLE_PERSON = { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' };

/** A category as lists show it: by name only. */
@ContractSchema({ name: 'CategoryName' })
export class CategoryName {
  @TextField({ description: 'Name of the category.' }) name!: string;
}

/** The fields a list and the single fetch show alike. */
abstract class ListedAsset {
  @IdField('ast', 'Id of the asset, scoped to the workspace: `ast_` + a ULID.')
  id!: string;

  @TextField({ description: 'Name of the asset (1-200 characters).' })
  name!: string;

  @TextField({ nullable: true, description: 'Stock-keeping unit, or null.' })
  sku!: string | null;

  @EnumField(ASSET_STATUSES, {
    description:
      'Status of the asset. Accepted on write and in the list filter: ' + ASSET_STATUSES.join(', '),
  })
  status!: AssetStatus;

  @TextField({ nullable: true, description: 'Brand, or null.' })
  brand!: string | null;

  @TextField({ nullable: true, description: 'Model, or null.' })
  model!: string | null;

  @TextField({ nullable: true, description: 'Serial number, or null.' })
  serial_number!: string | null;
}

const ASSIGNED_TO = {
  nullable: true,
  description: 'The person the asset is checked out to (`{id, name}`), or null.',
};

export const ASSET_EXAMPLE = {
  id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w',
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
  custody: {
    person: EXAMPLE_PERSON,
    since: '2026-11-22T10:15:00.000Z',
    due_at: '2026-12-22T17:00:00.000Z',
  },
  custom_fields: { purchase_date: '2026-03-01', warranty_years: 3 },
  condition: 'good',
  last_scanned_at: '2026-11-20T09:30:00.000Z',
  purchase_date: '2026-03-01',
  warranty_expires_on: '2029-02-28',
  seats: [
    {
      id: 'lst_01jd8z4b5c6d7e8f9g0h1j2k3m',
      license: { id: 'lic_01jd8z3a4b5c6d7e8f9g0h1j2k', name: 'JetBrains All Products' },
      assigned_at: '2026-11-22T10:20:00.000Z',
    },
  ],
  created_at: '2026-03-02T08:00:00.000Z',
  updated_at: '2026-11-22T10:15:00.000Z',
} as const satisfies Asset;

/** The same asset as a list shows it: fewer fields, the category by name only. */
const ASSET_SUMMARY_EXAMPLE = {
  id: ASSET_EXAMPLE.id,
  name: ASSET_EXAMPLE.name,
  sku: ASSET_EXAMPLE.sku,
  status: ASSET_EXAMPLE.status,
  brand: ASSET_EXAMPLE.brand,
  model: ASSET_EXAMPLE.model,
  serial_number: ASSET_EXAMPLE.serial_number,
  category: { name: ASSET_EXAMPLE.category.name },
  assigned_to: ASSET_EXAMPLE.assigned_to,
  updated_at: ASSET_EXAMPLE.updated_at,
} as const satisfies AssetSummary;

/** An asset as list results show it (spec 2.1). */
@ContractSchema({
  name: 'AssetSummary',
  description:
    'An asset as `GET /assets` lists it. The single fetch (`Asset`) adds asset_tag, location, ' +
    'custody, custom_fields and created_at, and gives the category its id.',
  examples: [ASSET_SUMMARY_EXAMPLE],
})
export class AssetSummary extends ListedAsset {
  @NestedField(CategoryName, {
    nullable: true,
    description: 'The category (`{name}` in lists), or null.',
  })
  category!: CategoryName | null;

  @NestedField(PersonRef, ASSIGNED_TO) assigned_to!: NamedRef | null;

  @TimestampField({ description: 'When the asset last changed.' }) updated_at!: string;
}

/**
 * An asset as the single fetch shows it; also the body of the create and update responses and
 * the `data` of the asset.* events.
 */
@ContractSchema({
  name: 'Asset',
  description:
    'An asset as `GET /assets/{id}` returns it; also the body of `POST /assets` (201) and ' +
    '`PATCH /assets/{id}` (200), and the `data` of the asset.* webhook events.',
  examples: [ASSET_EXAMPLE],
})
export class Asset extends ListedAsset {
  @TextField({
    description: 'Asset tag, unique in the workspace; generated (`AT-000001`, ...) when not given.',
  })
  asset_tag!: string;

  @NestedField(CategoryRef, {
    nullable: true,
    description: 'The category (`{id, name}`), or null. Categories are created on first use.',
  })
  category!: NamedRef | null;

  @NestedField(LocationRef, {
    nullable: true,
    description: 'The location (`{id, name}`), or null. Locations are created on first use.',
  })
  location!: NamedRef | null;

  @NestedField(PersonRef, ASSIGNED_TO) assigned_to!: NamedRef | null;

  @NestedField(Custody, {
    nullable: true,
    description: 'Who holds the asset and since when, or null when it is not checked out.',
  })
  custody!: Custody | null;

  @OpenObjectField({
    description:
      "Values of the workspace's custom fields, by key (text, number, boolean, " +
      '`YYYY-MM-DD` date or select option). Keys without a value are absent.',
  })
  custom_fields!: Record<string, unknown>;

  @EnumField(ASSET_CONDITIONS, {
    nullable: true,
    description: `Physical condition (${ASSET_CONDITIONS.join(', ')}), or null when not recorded.`,
  })
  condition!: AssetCondition | null;

  @TimestampField({
    nullable: true,
    description: 'When its tag or serial number was last scanned in the console, or null.',
  })
  last_scanned_at!: string | null;

  @DateField({ nullable: true, description: 'The day it was bought (`YYYY-MM-DD`), or null.' })
  purchase_date!: string | null;

  @DateField({
    nullable: true,
    description:
      'The last day of its warranty (`YYYY-MM-DD`), or null. `warranty.expiring` fires at the ' +
      'thresholds of the notice settings before it ends, `warranty.expired` when it has.',
  })
  warranty_expires_on!: string | null;

  @ListField(HeldSeat, {
    description:
      'The seats of licences the asset holds (licences in the bin left out), oldest first.',
  })
  seats!: HeldSeat[];

  @TimestampField({ description: 'When the asset was created.' }) created_at!: string;

  @TimestampField({ description: 'When the asset last changed.' }) updated_at!: string;
}

export const AssetPage = pageOf(AssetSummary, {
  name: 'AssetPage',
  description:
    'A page of assets: the body of `GET /assets` when `page` is given. Walk the pages until ' +
    'page * pageSize >= total.',
  examples: [{ data: [ASSET_SUMMARY_EXAMPLE], page: 1, pageSize: 50, total: 1 }],
});
export type AssetPage = Page<AssetSummary>;

/** A deleted asset as the console's bin lists it (console API only). */
@ContractSchema({ name: 'DeletedAsset' })
export class DeletedAsset {
  @IdField('ast', 'Id of the asset; it keeps it when restored.') id!: string;
  @TextField({ description: 'Name of the asset when it was deleted.' }) name!: string;
  @TextField({ description: 'Its asset tag; restoring needs it to be free.' }) asset_tag!: string;
  @TimestampField({ description: 'When it was deleted.' }) deleted_at!: string;
  @TimestampField({
    nullable: true,
    description:
      'When it is purged for good, and can no longer be restored (the bin keeps assets ' +
      'BIN_RETENTION_DAYS, 30 by default); null when this deployment keeps the bin for ever.',
  })
  purge_at!: string | null;
}

/** What a scan found (console API only); the scan is recorded and fires `asset.scanned`. */
@ContractSchema({ name: 'ScannedAsset' })
export class ScannedAsset {
  @NestedField(Asset) asset!: Asset;
  @EnumField(SCAN_MATCHES, { description: 'What the scanned code matched.' }) matched!: ScanMatch;
}

/** An asset as the single fetch shows it; also the body of create and update responses. */
export type AssetDetail = Asset;
