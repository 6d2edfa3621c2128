import {
  DomainError,
  type CreateCustomFieldInput,
  type CustomFieldView,
} from '@custodian/contracts';
import { isUniqueViolation, newId, queryOne, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CustomFieldEntity } from './custom-field.entity';

/** Custom-field definitions of a workspace's assets (the console's work, via the admin CLI). */
@Injectable()
export class CustomFieldsService {
  constructor(private readonly db: DataSource) {}

  async create(input: CreateCustomFieldInput): Promise<CustomFieldView> {
    if (input.type === 'select' && !input.options?.length) {
      throw new DomainError('invalid_input', 'options are required for a select field');
    }
    if (input.type !== 'select' && input.options) {
      throw new DomainError('invalid_input', 'options are only for select fields');
    }
    try {
      const row = await queryOne<CustomFieldEntity>(
        this.db,
        `INSERT INTO register.custom_fields (id, workspace_id, key, label, type, options, required)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          newId('cfd'),
          input.workspace,
          input.key,
          input.label.trim(),
          input.type,
          input.options ?? null,
          input.required ?? false,
        ],
      );
      return { ...row, created_at: row.created_at.toISOString() };
    } catch (error) {
      if (isUniqueViolation(error, 'custom_fields_workspace_key')) {
        throw new DomainError('conflict', `custom field ${input.key} already exists`);
      }
      throw error;
    }
  }

  /** Oldest first, the order the asset form asks for them in. */
  async list(workspace: string): Promise<CustomFieldView[]> {
    const rows = await queryRows<CustomFieldEntity>(
      this.db,
      `SELECT * FROM register.custom_fields WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspace],
    );
    return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  }
}
