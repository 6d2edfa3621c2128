import {
  CreateCustomFieldInput,
  DomainError,
  RegisterAdminPatterns,
  type CustomFieldView,
} from '@custodian/contracts';
import { isUniqueViolation, newId, queryOne, validateInput } from '@custodian/runtime';
import { Controller, Injectable } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/rpc-server.handle';

interface CustomFieldRow {
  id: string;
  workspace_id: string;
  key: string;
  label: string;
  type: CustomFieldView['type'];
  options: string[] | null;
  required: boolean;
  created_at: Date;
}

/** Custom-field definitions of a workspace's assets (the console's work, via the admin CLI). */
@Injectable()
export class CustomFieldsService {
  constructor(private readonly db: DataSource) {}

  async create(raw: unknown): Promise<CustomFieldView> {
    const input = validateInput(CreateCustomFieldInput, fromCli(raw));
    if (input.type === 'select' && !input.options?.length) {
      throw new DomainError('invalid_input', 'options are required for a select field');
    }
    if (input.type !== 'select' && input.options) {
      throw new DomainError('invalid_input', 'options are only for select fields');
    }
    try {
      const row = await queryOne<CustomFieldRow>(
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
}

/** The CLI sends `--options a,b` as one string and `--required` as a bare flag. */
function fromCli(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const input = { ...(raw as Record<string, unknown>) };
  if (typeof input.options === 'string') {
    input.options = input.options
      .split(',')
      .map((option) => option.trim())
      .filter(Boolean);
  }
  if (input.required === 'true') input.required = true;
  if (input.required === 'false') input.required = false;
  return input;
}

@Controller()
export class CustomFieldsAdminController {
  constructor(private readonly customFields: CustomFieldsService) {}

  @MessagePattern(RegisterAdminPatterns.customFieldCreate, REGISTER_ADMIN_TRANSPORT)
  create(@Payload() input: unknown): Promise<CustomFieldView> {
    return this.customFields.create(input);
  }
}
