import { Module } from '@nestjs/common';
import { WorkerAdminClient } from './worker-admin-client';

/** The gateway's link to the webhook-worker's admin queue (the console's webhooks and log). */
@Module({ providers: [WorkerAdminClient], exports: [WorkerAdminClient] })
export class WorkerClientModule {}
