import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, Field, TextField } from '../fields/field.decorators';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from './custom-field.constants';

export interface CustomFieldView {
  id: string;
  workspace_id: string;
  key: string;
  label: string;
  type: CustomFieldType;
  options: string[] | null;
  required: boolean;
  created_at: string;
}

@ContractSchema({
  name: 'ConsoleCustomField',
  description:
    "A custom field of the workspace's assets (defined with the admin CLI): what the asset " +
    'form asks for, and how its value is checked.',
})
export class ConsoleCustomField {
  @TextField({ description: 'The key its value has in `custom_fields`.' }) key!: string;
  @TextField({ description: 'What a person reads next to it.' }) label!: string;
  @EnumField(CUSTOM_FIELD_TYPES) type!: CustomFieldType;
  @Field({ type: 'array', items: { type: 'string' } }, [], {
    nullable: true,
    description: 'The choices of a `select` field; null for the others.',
  })
  options!: string[] | null;
  @Field({ type: 'boolean' }, [], { description: 'Whether a new asset must give it.' })
  required!: boolean;
}
