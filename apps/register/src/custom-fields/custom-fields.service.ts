import {
  DomainError,
  type CreateCustomFieldInput,
  type CustomFieldView,
} from '@custodian/contracts';
import { isUniqueViolation, newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CUSTOM_FIELD_KEY_CONSTRAINT,
  insertCustomField,
  listCustomFields,
  toCustomFieldView,
} from './custom-field.store';

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
      const row = await insertCustomField(this.db, {
        id: newId('cfd'),
        workspace_id: input.workspace,
        key: input.key,
        label: input.label.trim(),
        type: input.type,
        options: input.options ?? null,
        required: input.required ?? false,
      });
      return toCustomFieldView(row);
    } catch (error) {
      if (isUniqueViolation(error, CUSTOM_FIELD_KEY_CONSTRAINT)) {
        throw new DomainError('conflict', `custom field ${input.key} already exists`);
      }
      throw error;
    }
  }

  /** Oldest first, the order the asset form asks for them in. */
  async list(workspace: string): Promise<CustomFieldView[]> {
    const rows = await listCustomFields(this.db, workspace);
    return rows.map(toCustomFieldView);
  }
}
