import { Module } from '@nestjs/common';
import { GatewayClient } from './gateway-client';

/** The worker's way to the gateway's admin queue, for the modules that need a workspace's plan. */
@Module({ providers: [GatewayClient], exports: [GatewayClient] })
export class GatewayClientModule {}
