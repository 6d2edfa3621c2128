import { DomainError } from '@custodian/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { GatewayConfig } from '../../config/gateway-config';
import { RedisConnection } from '../../redis/redis.provider';
import { RedisKeys } from '../../redis/redis-keys';

/** What a console session holds: who signed in and the workspace they work in. */
export interface SessionRecord {
  email: string;
  /** Null until a workspace is picked among the e-mail's memberships. */
  workspaceId: string | null;
  memberId: string | null;
  /** Epoch ms; a session ends SESSION_MAX_HOURS after it began, however active. */
  createdAt: number;
  /**
   * Set when an invitation opened the session: the one workspace it works in. A token proves
   * only that invitation (the inviting admin has seen it), so the session neither reaches the
   * e-mail's other memberships nor sets its password; a sign-in by link or password does.
   */
  scope?: string;
}

/**
 * Console sessions in Redis. The cookie carries a random 256-bit id; Redis keys hold only its
 * SHA-256, so a dump of Redis (or a log of its keys) opens no session. Expiry slides with use
 * (SESSION_IDLE_MINUTES) under an absolute cap (SESSION_MAX_HOURS).
 */
@Injectable()
export class SessionStore {
  private readonly logger = new Logger('SessionStore');
  private readonly idleSeconds: number;
  private readonly maxMs: number;

  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.idleSeconds = config.SESSION_IDLE_MINUTES * 60;
    this.maxMs = config.SESSION_MAX_HOURS * 3_600_000;
  }

  async create(record: Omit<SessionRecord, 'createdAt'>): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.write(id, { ...record, createdAt: Date.now() });
    return id;
  }

  /** The session of a cookie value, its idle expiry renewed; null when unknown or over. */
  async read(id: string): Promise<SessionRecord | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await this.command(() =>
      this.redis.client.getex(RedisKeys.consoleSession(digest(id)), 'EX', this.idleSeconds),
    );
    if (!raw) return null;
    const record = JSON.parse(raw) as SessionRecord;
    if (Date.now() - record.createdAt > this.maxMs) {
      await this.destroy(id);
      return null;
    }
    return record;
  }

  async update(id: string, record: SessionRecord): Promise<void> {
    await this.write(id, record);
  }

  async destroy(id: string): Promise<void> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return;
    await this.command(() => this.redis.client.del(RedisKeys.consoleSession(digest(id))));
  }

  private async write(id: string, record: SessionRecord): Promise<void> {
    await this.command(() =>
      this.redis.client.set(
        RedisKeys.consoleSession(digest(id)),
        JSON.stringify(record),
        'EX',
        this.idleSeconds,
      ),
    );
  }

  /** Sessions live only in Redis: without it nobody can be signed in, and the console says so. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logger.warn(`console session store unavailable: ${(error as Error).message}`);
      throw new DomainError(
        'unavailable',
        'Signing in is unavailable for a moment (the session store cannot be reached); try again shortly',
      );
    }
  }
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}
