import type { CustomFieldView } from '@custodian/contracts';
import { queryOne, queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { CustomFieldEntity } from './custom-field.entity';

/*
 * register.custom_fields: its SQL and its row types, and the view a row makes. assets/ reads
 * the definitions when it checks an asset's values (assets/custom-field-values.ts).
 */

/** What an asset write checks its custom-field values against. */
export type CustomFieldDefinition = Pick<
  CustomFieldEntity,
  'key' | 'type' | 'options' | 'required'
>;

/** The workspace's definitions, by key. */
export async function customFieldDefinitions(
  manager: EntityManager,
  workspaceId: string,
): Promise<CustomFieldDefinition[]> {
  return manager.query<CustomFieldDefinition[]>(
    `SELECT key, type, options, required FROM register.custom_fields
     WHERE workspace_id = $1 ORDER BY key`,
    [workspaceId],
  );
}

/** The columns a definition is created with; created_at takes its default. */
export type NewCustomFieldRow = Omit<CustomFieldEntity, 'created_at'>;

/** The unique index a second definition of one key in a workspace violates. */
export const CUSTOM_FIELD_KEY_CONSTRAINT = 'custom_fields_workspace_key';

export function insertCustomField(
  db: Queryable,
  field: NewCustomFieldRow,
): Promise<CustomFieldEntity> {
  return queryOne<CustomFieldEntity>(
    db,
    `INSERT INTO register.custom_fields (id, workspace_id, key, label, type, options, required)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [
      field.id,
      field.workspace_id,
      field.key,
      field.label,
      field.type,
      field.options,
      field.required,
    ],
  );
}

/** Oldest first, the order the asset form asks for them in. */
export function listCustomFields(db: Queryable, workspaceId: string): Promise<CustomFieldEntity[]> {
  return queryRows<CustomFieldEntity>(
    db,
    `SELECT * FROM register.custom_fields WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
}

export function toCustomFieldView(row: CustomFieldEntity): CustomFieldView {
  return { ...row, created_at: row.created_at.toISOString() };
}
