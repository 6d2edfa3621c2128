import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * register.locations: places in a tree (a building, its floors, their rooms). A name is unique
 * among its siblings, any case; `location` given by name on an asset or a person finds the one
 * place of that name or creates it at the top level (migration LocationTree).
 */
@Entity({ schema: 'register', name: 'locations' })
// Partial and expression indexes, which TypeORM cannot declare: (workspace_id, lower(name))
// at the top level, (parent_id, lower(name)) below it, and (workspace_id, lower(name)).
@Index('locations_top_name', { synchronize: false })
@Index('locations_sibling_name', { synchronize: false })
@Index('locations_workspace_any_name', { synchronize: false })
export class LocationEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'locations_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => LocationEntity, { name: 'locations_parent_id_fkey', onDelete: 'RESTRICT' })
  parent_id!: string | null;

  @Column({ type: 'text', nullable: true })
  address!: string | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
