import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** register.locations (of assets and people): created on first use by name, like categories. */
@Entity({ schema: 'register', name: 'locations' })
// UNIQUE (workspace_id, lower(name)): an expression index, which TypeORM cannot declare.
@Index('locations_workspace_name', { synchronize: false })
export class LocationEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'locations_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
