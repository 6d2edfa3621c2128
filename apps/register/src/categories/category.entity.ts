import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** register.categories: created on first use by name; a name once per workspace, any case. */
@Entity({ schema: 'register', name: 'categories' })
// UNIQUE (workspace_id, lower(name)): an expression index, which TypeORM cannot declare.
@Index('categories_workspace_name', { synchronize: false })
export class CategoryEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'categories_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
