import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** register.custom_fields: the custom fields a workspace's assets carry. */
@Entity({ schema: 'register', name: 'custom_fields' })
@Unique('custom_fields_workspace_key', ['workspace_id', 'key'])
@Check('custom_fields_type_check', checkOneOf('type', CUSTOM_FIELD_TYPES))
export class CustomFieldEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'custom_fields_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  label!: string;

  @Column({ type: 'text' })
  type!: CustomFieldType;

  /** The choices of a select field; null for the other types. */
  @Column({ type: 'text', array: true, nullable: true })
  options!: string[] | null;

  @Column({ type: 'boolean', default: false })
  required!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
