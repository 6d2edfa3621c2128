import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * register.categories: records of their own (GET/POST /categories), and still created on first
 * use when an asset names one; a name once per workspace, any case.
 */
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

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
