import {
  CreateKeyInput,
  DomainError,
  RevokeKeyInput,
  SYSTEM_ACTOR,
  WorkspaceRefInput,
  type ActivityRecord,
  type ConsoleKey,
  type CreatedKeyView,
  type KeyView,
  type RevokedKeyView,
} from '@custodian/contracts';
import { AppliedWrites, type RequestIdentity } from '@custodian/messaging';
import { ActivityLog, newId } from '@custodian/persistence';
import { findUnstorableText } from '@custodian/validation';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AccessPublisher } from './access-publisher';
import {
  insertKey,
  keyWorkspace,
  lockKey,
  revokeKey,
  workspaceKeys,
  workspaceKeysWithUse,
  type KeyWithUseRow,
} from './access-store';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-format';

@Injectable()
export class KeysService {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly publisher: AccessPublisher,
    private readonly activity: ActivityLog,
    private readonly writes: AppliedWrites,
  ) {}

  /**
   * One way to make a key, for the admin CLI and the console alike; `member` is the console
   * member who made it (null from the CLI), kept as created_by and named in the activity feed.
   */
  async create(
    input: CreateKeyInput,
    member: KeyActor | null = null,
    identity?: RequestIdentity,
  ): Promise<CreatedKeyView> {
    await this.workspaces.get(input.workspace);
    const key = generateApiKey();
    const write = async (tx: EntityManager) => {
      const created = await insertKey(tx, {
        id: newId('key'),
        workspace_id: input.workspace,
        name: input.name ?? null,
        scope: input.scope,
        prefix: displayPrefix(key),
        key_hash: hashApiKey(key),
        created_by: member?.email ?? null,
      });
      await this.activity.record(tx, input.workspace, {
        ...keyActivity(member),
        recordType: 'key',
        recordId: created.id,
        recordName: created.name ?? created.prefix,
        action: 'created',
        changes: [{ field: 'scope', from: null, to: created.scope }],
      });
      return created;
    };
    let row: Awaited<ReturnType<typeof write>>;
    if (identity?.id === undefined) {
      row = await this.db.transaction(write);
    } else {
      // A console create with an Idempotency-Key, applied once per member and key. Only the
      // key's hash is stored, so a repeat cannot show the key again: it is told which key the
      // first request made, to use it if that answer arrived after all, or revoke it.
      const { reply, result } = await this.writes.apply(
        input.workspace,
        write,
        (created) => ({ id: created.id, name: created.name, prefix: created.prefix }),
        { id: identity.id, ...(identity.fingerprint ? { fingerprint: identity.fingerprint } : {}) },
      );
      if (!result) {
        throw new DomainError(
          'conflict',
          `This Idempotency-Key already created API key ${reply.id} (${reply.name ?? reply.prefix}); ` +
            'its key was shown in that answer only. Revoke it if the answer was lost, and ' +
            'create another with a new Idempotency-Key',
        );
      }
      row = result;
    }
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

  /**
   * Revocation commits and reaches the shared key cache before it is reported done. With
   * `workspace` (the console), a key of another workspace is not found, like an unknown one.
   */
  async revoke(
    input: RevokeKeyInput,
    workspace?: string,
    member: KeyActor | null = null,
  ): Promise<RevokedKeyView> {
    // Text Postgres refuses (a NUL, from `DELETE /console/api/keys/%00`) names no key: a 404,
    // not the driver's error as a 500.
    if (findUnstorableText(input.id, '') !== null) {
      throw new DomainError('not_found', `Key ${JSON.stringify(input.id)} not found`);
    }
    const workspaceId = await keyWorkspace(this.db, input.id);
    if (!workspaceId || (workspace !== undefined && workspaceId !== workspace)) {
      throw new DomainError('not_found', `Key ${input.id} not found`);
    }
    return this.publisher.change(workspaceId, async (tx) => {
      const before = await lockKey(tx, input.id);
      const row = await revokeKey(tx, input.id);
      // Revoking twice is harmless and is one change, recorded once.
      if (before.revoked_at === null) {
        await this.activity.record(tx, workspaceId, {
          ...keyActivity(member),
          recordType: 'key',
          recordId: row.id,
          recordName: before.name ?? before.prefix,
          action: 'revoked',
        });
      }
      return { id: row.id, revoked_at: row.revoked_at.toISOString() };
    });
  }

  async list(input: WorkspaceRefInput): Promise<KeyView[]> {
    await this.workspaces.get(input.workspace);
    const rows = await workspaceKeys(this.db, input.workspace);
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

  /** The console's list: who created each key and when it was last counted. */
  async listWithUse(workspace: string): Promise<ConsoleKey[]> {
    const rows = await workspaceKeysWithUse(this.db, workspace);
    return rows.map(consoleKey);
  }

  async getWithUse(workspace: string, id: string): Promise<ConsoleKey> {
    const found = (await this.listWithUse(workspace)).find((key) => key.id === id);
    if (!found) throw new DomainError('not_found', `Key ${id} not found`);
    return found;
  }
}

function consoleKey(row: KeyWithUseRow): ConsoleKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** The console member who changes a key; null is the admin CLI. */
export interface KeyActor {
  id: string;
  email: string;
}

function keyActivity(member: KeyActor | null): Pick<ActivityRecord, 'source' | 'actor'> {
  if (member === null) return { source: 'cli', actor: SYSTEM_ACTOR };
  return { source: 'console', actor: { type: 'member', id: member.id, name: member.email } };
}
