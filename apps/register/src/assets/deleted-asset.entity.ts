import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * register.deleted_assets: the bin. A soft-deleted asset's row leaves register.assets and is
 * kept here whole (`row`, as to_jsonb made it) until it is restored under the same id.
 */
@Entity({ schema: 'register', name: 'deleted_assets' })
@Index('deleted_assets_workspace', ['workspace_id', 'deleted_at', 'id'])
export class DeletedAssetEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'deleted_assets_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  asset_tag!: string;

  /** The register.assets row, without its generated search_text. */
  @Column({ type: 'jsonb' })
  row!: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  deleted_at!: Date;
}
