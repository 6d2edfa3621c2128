import { DomainError } from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { hashApiKey, isWellFormedApiKey } from './api-key-format';
import { AccessCache } from './access-cache';
import type { AccessRecord } from '../access/access-record';
import { AccessStore } from './access-store';

const INVALID_KEY = 'API key is not valid or has been revoked';

/** Turns a raw key into its access record: checksum first, then Redis, then Postgres. */
@Injectable()
export class AccessService {
  constructor(
    private readonly cache: AccessCache,
    private readonly store: AccessStore,
  ) {}

  async resolve(rawKey: string): Promise<AccessRecord> {
    if (!isWellFormedApiKey(rawKey)) {
      throw new DomainError('unauthenticated', 'API key is malformed');
    }
    const keyHash = hashApiKey(rawKey);
    let record = await this.cache.get(keyHash);
    if (!record) {
      const redisAnswered = record === null;
      record = await this.store.byHash(keyHash);
      if (record && redisAnswered) await this.cache.fill(keyHash, record);
    }
    return this.assertUsable(record);
  }

  /** Postgres only: the path when Redis cannot be asked. */
  async resolveFromStore(rawKey: string): Promise<AccessRecord> {
    if (!isWellFormedApiKey(rawKey)) {
      throw new DomainError('unauthenticated', 'API key is malformed');
    }
    return this.assertUsable(await this.store.byHash(hashApiKey(rawKey)));
  }

  /** An unknown and a revoked key get the same answer. */
  assertUsable(record: AccessRecord | null): AccessRecord {
    if (!record || record.revoked) throw new DomainError('unauthenticated', INVALID_KEY);
    return record;
  }

  get cacheTtl(): number {
    return this.cache.ttl;
  }
}
