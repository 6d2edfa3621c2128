import { ConsoleCustomFieldsController } from './register/console-custom-fields.controller';
import { ActivityFeed } from './activity/activity-feed';
import { ConsoleActivityController } from './activity/console-activity.controller';
import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { RateLimitsModule } from '../limits/rate-limits.module';
import { RedisModule } from '../redis/redis.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { ConsoleKeysController } from './keys/console-keys.controller';
import { ConsoleAssetsController } from './register/console-assets.controller';
import { ConsoleMembersController } from './register/console-members.controller';
import { ConsolePeopleController } from './register/console-people.controller';
import { ConsoleRegister } from './register/console-register';
import { ConsoleAccessGuard } from './session/console-access';
import { SessionStore } from './session/session-store';
import { ConsoleSessions } from './sign-in/console-sessions';
import { SignInController } from './sign-in/sign-in.controller';
import { SignInLimiter } from './sign-in/sign-in-limiter';
import { ConsoleDeliveriesController } from './webhooks/console-deliveries.controller';
import { ConsoleEventsController } from './webhooks/console-events.controller';
import { ConsoleWebhooksController } from './webhooks/console-webhooks.controller';
import { ConsoleUsageController } from './usage/console-usage.controller';
import { WorkspaceUsage } from './usage/workspace-usage';
import { WorkerAdminClient } from '../worker-client/worker-admin-client';

/**
 * The console's HTTP API under /console/api: members signed in by session, never API keys.
 * Every write goes to the app that owns it, through the same services the admin CLI uses.
 */
@Module({
  imports: [AdminModule, RateLimitsModule, RedisModule, RegisterClientModule],
  controllers: [
    SignInController,
    ConsoleKeysController,
    ConsoleEventsController,
    ConsoleWebhooksController,
    ConsoleDeliveriesController,
    ConsoleAssetsController,
    ConsolePeopleController,
    ConsoleMembersController,
    ConsoleActivityController,
    ConsoleCustomFieldsController,
    ConsoleUsageController,
  ],
  providers: [
    SessionStore,
    ConsoleSessions,
    SignInLimiter,
    ConsoleAccessGuard,
    WorkerAdminClient,
    ConsoleRegister,
    ActivityFeed,
    WorkspaceUsage,
  ],
})
export class ConsoleModule {}
