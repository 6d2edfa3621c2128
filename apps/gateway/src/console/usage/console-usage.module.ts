import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RateLimitsModule } from '../../limits/rate-limits.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleUsageController } from './console-usage.controller';
import { WorkspaceUsage } from './workspace-usage';

/** The workspace's plan and usage: its limits, request counts and the register's counters. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RateLimitsModule, RegisterClientModule],
  controllers: [ConsoleUsageController],
  providers: [WorkspaceUsage],
})
export class ConsoleUsageModule {}
