import {
  CreateKeyInput,
  DomainError,
  RevokeKeyInput,
  WorkspaceRefInput,
  type CreatedKeyView,
  type KeyView,
  type RevokedKeyView,
} from '@custodian/contracts';
import { newId, queryOne } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessPublisher } from '../keys/access-publisher';
import type { ApiKeyEntity } from '../keys/api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from '../keys/api-key-format';
import { WorkspacesService } from './workspaces.service';

@Injectable()
export class KeysService {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly publisher: AccessPublisher,
  ) {}

  async create(input: CreateKeyInput): Promise<CreatedKeyView> {
    await this.workspaces.get(input.workspace);
    const key = generateApiKey();
    const row = await queryOne<ApiKeyEntity>(
      this.db,
      `INSERT INTO gateway.api_keys (id, workspace_id, name, scope, prefix, key_hash)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [
        newId('key'),
        input.workspace,
        input.name ?? null,
        input.scope,
        displayPrefix(key),
        hashApiKey(key),
      ],
    );
    return {
      id: row.id,
      key,
      prefix: row.prefix,
      scope: row.scope,
      name: row.name,
      workspace_id: row.workspace_id,
      created_at: row.created_at.toISOString(),
    };
  }

  /** Revocation commits and reaches the shared key cache before it is reported done. */
  async revoke(input: RevokeKeyInput): Promise<RevokedKeyView> {
    const keys = await this.db.query<Array<Pick<ApiKeyEntity, 'workspace_id'>>>(
      `SELECT workspace_id FROM gateway.api_keys WHERE id = $1`,
      [input.id],
    );
    const workspaceId = keys[0]?.workspace_id;
    if (!workspaceId) throw new DomainError('not_found', `Key ${input.id} not found`);
    return this.publisher.change(workspaceId, async (tx) => {
      // coalesce: the revocation time, never null here.
      const row = await queryOne<Pick<ApiKeyEntity, 'id'> & { revoked_at: Date }>(
        tx,
        `UPDATE gateway.api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
         RETURNING id, revoked_at`,
        [input.id],
      );
      return { id: row.id, revoked_at: row.revoked_at.toISOString() };
    });
  }

  async list(input: WorkspaceRefInput): Promise<KeyView[]> {
    await this.workspaces.get(input.workspace);
    const rows = await this.db.query<ApiKeyEntity[]>(
      `SELECT * FROM gateway.api_keys WHERE workspace_id = $1 ORDER BY created_at, id`,
      [input.workspace],
    );
    return rows.map((row) => ({
      id: row.id,
      prefix: row.prefix,
      scope: row.scope,
      name: row.name,
      workspace_id: row.workspace_id,
      created_at: row.created_at.toISOString(),
      revoked_at: row.revoked_at?.toISOString() ?? null,
    }));
  }
}
