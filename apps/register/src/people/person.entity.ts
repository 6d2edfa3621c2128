import { PERSON_STATUSES, type PersonStatus } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { LocationEntity } from '../locations/location.entity';
import { DepartmentEntity } from '../departments/department.entity';

/** register.people: people equipment is issued to (not logins). */
@Entity({ schema: 'register', name: 'people' })
@Check('people_status_check', checkOneOf('status', PERSON_STATUSES))
@Index('people_workspace_location', ['workspace_id', 'location_id', 'created_at', 'id'], {
  where: 'location_id IS NOT NULL',
})
@Index('people_workspace_order', ['workspace_id', 'created_at', 'id'])
@Index('people_workspace_updated', ['workspace_id', 'updated_at', 'id'])
// GIN (workspace_id, search_text gin_trgm_ops): TypeORM can declare neither the method nor the
// operator class.
@Index('people_search', { synchronize: false })
export class PersonEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'people_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  full_name!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  employee_number!: string | null;

  @Column({ type: 'text', default: 'active' })
  status!: PersonStatus;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => DepartmentEntity, { name: 'people_department_id_fkey' })
  department_id!: string | null;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => LocationEntity, { name: 'people_location_id_fkey' })
  location_id!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;

  /** What `search` matches (LIKE, trigram-indexed): the identifying texts, lower case. */
  @Column({
    type: 'text',
    nullable: true,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `lower(
          full_name || chr(31) || coalesce(email, '') || chr(31) || coalesce(employee_number, '')
        )`,
  })
  search_text!: string | null;
}
