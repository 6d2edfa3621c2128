import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** register.departments (of people): created on first use by name, like categories. */
@Entity({ schema: 'register', name: 'departments' })
// UNIQUE (workspace_id, lower(name)): an expression index, which TypeORM cannot declare.
@Index('departments_workspace_name', { synchronize: false })
export class DepartmentEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'departments_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
