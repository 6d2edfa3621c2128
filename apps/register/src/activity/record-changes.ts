import type { ActivityChange, AssetDetail, PersonDetail } from '@custodian/contracts';
import { changedCustomFields, changedFields } from '@custodian/persistence';

/** The fields of an asset the feed compares, by their API names, as a person reads them. */
const ASSET_FIELDS: Record<string, (asset: AssetDetail) => unknown> = {
  name: (asset) => asset.name,
  asset_tag: (asset) => asset.asset_tag,
  status: (asset) => asset.status,
  condition: (asset) => asset.condition,
  sku: (asset) => asset.sku,
  brand: (asset) => asset.brand,
  model: (asset) => asset.model,
  serial_number: (asset) => asset.serial_number,
  category: (asset) => asset.category?.name,
  location: (asset) => asset.location?.name,
  assigned_to: (asset) => asset.assigned_to?.name,
  due_at: (asset) => asset.custody?.due_at,
  purchase_date: (asset) => asset.purchase_date,
  warranty_expires_on: (asset) => asset.warranty_expires_on,
};

const PERSON_FIELDS: Record<string, (person: PersonDetail) => unknown> = {
  full_name: (person) => person.full_name,
  email: (person) => person.email,
  employee_number: (person) => person.employee_number,
  status: (person) => person.status,
  department: (person) => person.department?.name,
  location: (person) => person.location?.name,
};

/** What differs between two versions of an asset (null: it did not exist), custom fields too. */
export function assetChanges(
  before: AssetDetail | null,
  after: AssetDetail | null,
): ActivityChange[] {
  return [
    ...changedFields(before, after, ASSET_FIELDS),
    ...changedCustomFields(before?.custom_fields ?? {}, after?.custom_fields ?? {}),
  ];
}

export function personChanges(
  before: PersonDetail | null,
  after: PersonDetail | null,
): ActivityChange[] {
  return changedFields(before, after, PERSON_FIELDS);
}
