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
  /** A public id of the session (never the cookie): what the member's list names it by. */
  handle?: string;
  /** The browser's User-Agent (cut to 200 characters) and the client address at sign-in. */
  userAgent?: string;
  address?: string;
  /** Epoch ms of the last sign-in by credential (link, password, invitation, password again). */
  authAt?: number;
  /** Epoch ms of the last request, written at most once a minute. */
  lastSeenAt?: number;
}

/** One of a member's sessions, as the list shows it. */
export interface ListedSession {
  handle: string;
  current: boolean;
  record: SessionRecord;
  /** The digest its Redis key is made of (never shown). */
  key: string;
}

/** Where a sign-in came from. */
export interface SessionOrigin {
  userAgent?: string;
  address?: string;
}

/** How stale lastSeenAt may be before a read writes it again. */
const SEEN_EVERY_MS = 60_000;

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

  async create(
    record: Omit<SessionRecord, 'createdAt'>,
    origin: SessionOrigin = {},
  ): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.write(id, {
      ...record,
      createdAt: now,
      authAt: now,
      lastSeenAt: now,
      handle: randomBytes(12).toString('base64url'),
      ...(origin.userAgent ? { userAgent: origin.userAgent.slice(0, 200) } : {}),
      ...(origin.address ? { address: origin.address } : {}),
    });
    // The member's index of sessions (by e-mail): their list, and "sign out everywhere".
    const index = RedisKeys.consoleSessionsOf(emailDigest(record.email));
    await this.command(() =>
      this.redis.client
        .multi()
        .sadd(index, digest(id))
        .expire(index, Math.ceil(this.maxMs / 1000))
        .exec(),
    );
    return id;
  }

  /**
   * The e-mail's open sessions, the one of `currentId` marked; the index forgets those that
   * ended on their own (idle or over).
   */
  async list(email: string, currentId: string): Promise<ListedSession[]> {
    const index = RedisKeys.consoleSessionsOf(emailDigest(email));
    const digests = await this.command(() => this.redis.client.smembers(index));
    if (digests.length === 0) return [];
    const raw = await this.command(() =>
      this.redis.client.mget(...digests.map((each) => RedisKeys.consoleSession(each))),
    );
    const listed: ListedSession[] = [];
    const gone: string[] = [];
    digests.forEach((each, i) => {
      const value = raw[i];
      if (!value) return void gone.push(each);
      const record = JSON.parse(value) as SessionRecord;
      if (Date.now() - record.createdAt > this.maxMs) return void gone.push(each);
      listed.push({
        handle: record.handle ?? each.slice(0, 16),
        current: each === digest(currentId),
        record,
        key: each,
      });
    });
    if (gone.length > 0) await this.command(() => this.redis.client.srem(index, ...gone));
    return listed.sort((a, b) => (b.record.lastSeenAt ?? 0) - (a.record.lastSeenAt ?? 0));
  }

  /**
   * Ends the e-mail's sessions that `which` picks (by handle, or all but the current);
   * returns how many ended.
   */
  async end(
    email: string,
    currentId: string,
    which: { handle: string } | { allBut: 'current' },
  ): Promise<number> {
    const ending = (await this.list(email, currentId)).filter((each) =>
      'handle' in which ? each.handle === which.handle : !each.current,
    );
    if (ending.length === 0) return 0;
    const digests = ending.map((each) => each.key);
    await this.command(() =>
      this.redis.client
        .multi()
        .del(...digests.map((each) => RedisKeys.consoleSession(each)))
        .srem(RedisKeys.consoleSessionsOf(emailDigest(email)), ...digests)
        .exec(),
    );
    return ending.length;
  }

  /** Marks the session as just proven again (its password confirmed). */
  async reauthenticated(id: string, record: SessionRecord): Promise<void> {
    await this.write(id, { ...record, authAt: Date.now() });
  }

  /** The session of a cookie value, its idle expiry renewed; null when unknown or over. */
  async read(id: string): Promise<SessionRecord | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await this.command(() =>
      this.redis.client.getex(RedisKeys.consoleSession(digest(id)), 'EX', this.idleSeconds),
    );
    if (!raw) return null;
    const record = JSON.parse(raw) as SessionRecord;
    const now = Date.now();
    if (now - record.createdAt > this.maxMs) {
      await this.destroy(id);
      return null;
    }
    if (now - (record.lastSeenAt ?? 0) > SEEN_EVERY_MS) {
      record.lastSeenAt = now;
      await this.write(id, record);
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

function emailDigest(email: string): string {
  return digest(`email:${email.trim().toLowerCase()}`);
}
