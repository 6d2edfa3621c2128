import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * register.workspace_counters: one row per workspace, locked by every write that counts
 * against a plan limit or takes a generated asset tag (see lockWorkspaceCounters).
 */
@Entity({ schema: 'register', name: 'workspace_counters' })
export class WorkspaceCountersEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'workspace_counters_pkey' })
  workspace_id!: string;

  /** The last generated asset tag's number. bigint: Postgres sends it as text. */
  @Column({ type: 'bigint', default: 0 })
  asset_tag_seq!: string;

  @Column({ type: 'integer', default: 0 })
  asset_count!: number;

  @Column({ type: 'integer', default: 0 })
  person_count!: number;

  /**
   * Bumped by a trigger whenever an asset is inserted or deleted or changes a column its lists
   * filter on: what the register's list cache is valid against. bigint: sent as text.
   */
  @Column({ type: 'bigint', default: 0 })
  asset_version!: string;

  /** The same for people. */
  @Column({ type: 'bigint', default: 0 })
  person_version!: string;

  /**
   * Bumped by a trigger on every change of what an unpaged asset list shows (an asset, its
   * holder's name, its category's name): what the gateway's copy of its bytes is checked
   * against. bigint: sent as text.
   */
  @Column({ type: 'bigint', default: 0 })
  asset_rows_version!: string;

  /** The same for people. */
  @Column({ type: 'bigint', default: 0 })
  person_rows_version!: string;

  /** Seats in use: active members. */
  @Column({ type: 'integer', default: 0 })
  member_count!: number;
}
