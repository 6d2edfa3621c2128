import { Module } from '@nestjs/common';
import { RedisConnection } from './redis.provider';

/** The gateway's one Redis connection (key cache, limits); key names in redis-keys.ts. */
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
