import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../limits/rate-limits.module';
import { AccessHook } from './access-hook';

/**
 * The API's front door: the Fastify hook that admits every /api/v1 request (bootstrap.ts
 * installs it) and, per route, @RequiresScope / @Public with AccessGuard.
 */
@Module({ imports: [RateLimitsModule], providers: [AccessHook], exports: [AccessHook] })
export class AccessModule {}
