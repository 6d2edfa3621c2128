import {
  DomainError,
  type HeldSeat,
  type Holding,
  type PersonDetail,
  type PersonSummary,
} from '@custodian/contracts';
import type { ListSource } from '@custodian/register-sql';
import type { EntityManager } from 'typeorm';
import type { CheckoutCandidateRow, HoldingRow } from '../custody/custody.store';
import type { DepartmentEntity } from '../departments/department.entity';
import type { LocationEntity } from '../locations/location.entity';
import type { Checked, SameColumns } from '../sql/same-columns';
import type { UpdateSet } from '../sql/update-set';
import type { PersonEntity } from './person.entity';

/*
 * register.people: its SQL and its row types. A person's holdings are custody's
 * (custody/custody.store.ts), which reads register.assets.
 */

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

/** The columns POST /people writes; the rest take their defaults. */
export type NewPersonRow = Pick<
  PersonEntity,
  | 'id'
  | 'workspace_id'
  | 'full_name'
  | 'email'
  | 'employee_number'
  | 'status'
  | 'department_id'
  | 'location_id'
>;

/** custody/ reads these at a check-out, typed by CheckoutCandidateRow: the entity is held to it. */
export type CheckoutCandidateColumns = Checked<
  SameColumns<CheckoutCandidateRow, Pick<PersonEntity, 'id' | 'full_name' | 'status'>>
>;

const PERSON_SUMMARY_COLUMNS = `p.id, p.full_name, p.email, p.employee_number, p.status,
  p.updated_at`;

const PERSON_DETAIL_COLUMNS = `${PERSON_SUMMARY_COLUMNS}, p.department_id,
  d.name AS department_name, p.location_id, l.name AS location_name, p.created_at`;

const PERSON_DETAIL_FROM = `register.people p
  LEFT JOIN register.departments d ON d.id = p.department_id
  LEFT JOIN register.locations l ON l.id = p.location_id`;

/** What GET /people reads. */
export const PERSON_LIST: ListSource = {
  columns: PERSON_SUMMARY_COLUMNS,
  from: 'register.people p',
  table: 'register.people',
  alias: 'p',
  counter: 'person_count',
  version: 'person_version',
  rowsVersion: 'person_rows_version',
};

/** Within the caller's workspace only; the same 404 for unknown and foreign ids. */
export async function findPersonRow(
  manager: EntityManager,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<PersonDetailRow> {
  const rows =
    id.length <= 64 && !id.includes('\u0000')
      ? await manager.query<PersonDetailRow[]>(
          `SELECT ${PERSON_DETAIL_COLUMNS} FROM ${PERSON_DETAIL_FROM}
             WHERE p.id = $1 AND p.workspace_id = $2${forUpdate ? ' FOR UPDATE OF p' : ''}`,
          [id, workspaceId],
        )
      : [];
  const row = rows[0];
  if (!row) throw new DomainError('not_found', `Person ${id} not found`);
  return row;
}

export async function insertPerson(tx: EntityManager, person: NewPersonRow): Promise<void> {
  await tx.query(
    `INSERT INTO register.people (id, workspace_id, full_name, email, employee_number, status,
           department_id, location_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      person.id,
      person.workspace_id,
      person.full_name,
      person.email,
      person.employee_number,
      person.status,
      person.department_id,
      person.location_id,
    ],
  );
}

/** A PATCH's columns (`update`: the person's id and workspace first). */
export async function updatePerson(tx: EntityManager, update: UpdateSet): Promise<void> {
  await tx.query(update.statement('register.people'), update.params);
}

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
  seats: HeldSeat[] = [],
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
    seats,
    created_at: row.created_at.toISOString(),
  };
}
