import type { Holding, PersonDetail, PersonStatus, PersonSummary } from '@custodian/contracts';

export interface PersonSummaryRow {
  id: string;
  full_name: string;
  email: string | null;
  employee_number: string | null;
  status: PersonStatus;
  updated_at: Date;
}

export interface PersonDetailRow extends PersonSummaryRow {
  department_id: string | null;
  department_name: string | null;
  location_id: string | null;
  location_name: string | null;
  created_at: Date;
}

export interface HoldingRow {
  id: string;
  name: string;
  asset_tag: string;
  assigned_at: Date;
}

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

export function toPersonDetail(row: PersonDetailRow, holdings: HoldingRow[]): PersonDetail {
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
    created_at: row.created_at.toISOString(),
  };
}
