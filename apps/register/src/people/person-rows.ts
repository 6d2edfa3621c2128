import type { Holding, PersonDetail, PersonSummary } from '@custodian/contracts';
import type { AssetEntity } from '../assets/asset.entity';
import type { LocationEntity } from '../locations/location.entity';
import type { DepartmentEntity } from '../departments/department.entity';
import type { PersonEntity } from './person.entity';

export type PersonSummaryRow = Pick<
  PersonEntity,
  'id' | 'full_name' | 'email' | 'employee_number' | 'status' | 'updated_at'
>;

/** The person's columns and the names its LEFT JOINs bring (null without a match). */
export type PersonDetailRow = PersonSummaryRow &
  Pick<PersonEntity, 'department_id' | 'location_id' | 'created_at'> & {
    department_name: DepartmentEntity['name'] | null;
    location_name: LocationEntity['name'] | null;
  };

/**
 * An asset the person holds. assigned_at is set whenever assigned_to_id is (both are written
 * together on check-out), so a held asset has one.
 */
export type HoldingRow = Pick<AssetEntity, 'id' | 'name' | 'asset_tag'> & {
  assigned_at: NonNullable<AssetEntity['assigned_at']>;
};

export const PERSON_SUMMARY_COLUMNS = `p.id, p.full_name, p.email, p.employee_number, p.status,
  p.updated_at`;

export const PERSON_DETAIL_COLUMNS = `${PERSON_SUMMARY_COLUMNS}, p.department_id,
  d.name AS department_name, p.location_id, l.name AS location_name, p.created_at`;

export const PERSON_DETAIL_FROM = `register.people p
  LEFT JOIN register.departments d ON d.id = p.department_id
  LEFT JOIN register.locations l ON l.id = p.location_id`;

export function toPersonSummary(row: PersonSummaryRow): PersonSummary {
  return {
    id: row.id,
    full_name: row.full_name,
    email: row.email,
    employee_number: row.employee_number,
    status: row.status,
    updated_at: row.updated_at.toISOString(),
  };
}

/** `holdings` is at most PERSON_HOLDINGS_MAX of them; `holdingsCount` counts them all. */
export function toPersonDetail(
  row: PersonDetailRow,
  holdings: HoldingRow[],
  holdingsCount: number,
): PersonDetail {
  return {
    ...toPersonSummary(row),
    department:
      row.department_id === null
        ? null
        : { id: row.department_id, name: row.department_name ?? '' },
    location:
      row.location_id === null ? null : { id: row.location_id, name: row.location_name ?? '' },
    holdings: holdings.map((holding): Holding => ({
      id: holding.id,
      name: holding.name,
      asset_tag: holding.asset_tag,
      since: holding.assigned_at.toISOString(),
    })),
    holdings_count: holdingsCount,
    created_at: row.created_at.toISOString(),
  };
}
