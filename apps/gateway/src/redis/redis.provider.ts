import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { GatewayConfig } from '../config/gateway-config';

/**
 * The gateway's Redis connection. No offline queue and a short command timeout: when Redis is
 * down a command fails at once and the caller falls back, instead of requests piling up.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis;
  private readonly logger = new Logger('Redis');
  private lastError = 0;

  constructor(@Inject(GatewayConfig) config: GatewayConfig) {
    this.client = new Redis(config.REDIS_URL, {
      keyPrefix: config.REDIS_PREFIX,
      enableOfflineQueue: false,
      commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1_000,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    this.client.on('error', (error: Error) => {
      // ioredis reports every failed reconnect; one line per 10 s is enough to see it.
      if (Date.now() - this.lastError > 10_000) {
        this.lastError = Date.now();
        this.logger.warn(`Redis unavailable: ${error.message}`);
      }
    });
  }

  isReady(): boolean {
    return this.client.status === 'ready';
  }

  onApplicationShutdown(): void {
    this.client.disconnect();
  }
}
