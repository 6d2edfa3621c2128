import 'reflect-metadata';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
/* eslint-disable @nx/enforce-module-boundaries -- the bench runs the gateway with one provider swapped */
import {
  AccessGate,
  AccessService,
  GatewayAppModule,
  createGatewayAdapter,
  listenGateway,
  loadGatewayConfig,
  type GateDecision,
} from '@custodian/gateway';
/* eslint-enable @nx/enforce-module-boundaries */
import { Injectable, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';

/**
 * The comparison point of `npm run bench -- limits`: the same gateway, but the per-minute
 * limit comes from @nestjs/throttler with its Redis storage, and our gate only resolves the
 * key (a cached GET, no counting).
 */
@Injectable()
class ResolveOnlyGate {
  constructor(private readonly access: AccessService) {}

  async admit(rawKey: string): Promise<GateDecision> {
    const record = await this.access.resolve(rawKey);
    return { verdict: 'admitted', record, limits: null, quotaReached: false };
  }
}

/** Throttle per API key, as our limiter does, not per client address. */
@Injectable()
class KeyThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const headers = request.headers as Record<string, string | undefined>;
    return Promise.resolve(headers['x-api-key'] ?? headers.authorization ?? 'anonymous');
  }

  /** The admin queue's handlers are not HTTP requests; only the API is throttled. */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    return context.getType() === 'http' ? super.canActivate(context) : Promise.resolve(true);
  }
}

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const moduleRef = await Test.createTestingModule({
    imports: [
      GatewayAppModule.forConfig(config),
      ThrottlerModule.forRoot({
        throttlers: [{ ttl: 60_000, limit: Number(process.env.BENCH_RATE_PER_MINUTE) }],
        storage: new ThrottlerStorageRedisService(config.REDIS_URL),
      }),
    ],
    providers: [{ provide: APP_GUARD, useClass: KeyThrottlerGuard }],
  })
    .overrideProvider(AccessGate)
    .useClass(ResolveOnlyGate)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createGatewayAdapter(config),
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  await listenGateway(app, config);
}

void main();
