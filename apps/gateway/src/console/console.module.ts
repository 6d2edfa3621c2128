import { Module } from '@nestjs/common';
import { ConsoleActivityModule } from './activity/console-activity.module';
import { ConsoleBookingsModule } from './bookings/console-bookings.module';
import { ConsoleLicensesModule } from './licenses/console-licenses.module';
import { ConsoleMaintenanceModule } from './maintenance/console-maintenance.module';
import { ConsoleAuditsModule } from './audits/console-audits.module';
import { ConsoleImportsModule } from './imports/console-imports.module';
import { ConsoleRemindersModule } from './reminders/console-reminders.module';
import { ConsoleLocationsModule } from './locations/console-locations.module';
import { ConsoleCategoriesModule } from './categories/console-categories.module';
import { ConsoleCalendarFeedModule } from './calendar/console-calendar-feed.module';
import { ConsoleKeysModule } from './keys/console-keys.module';
import { ConsoleCustomFieldsModule } from './register/console-custom-fields.module';
import { ConsoleRegisterModule } from './register/console-register.module';
import { ConsoleSignInModule } from './sign-in/console-sign-in.module';
import { ConsoleUsageModule } from './usage/console-usage.module';
import { ConsoleWebhooksModule } from './webhooks/console-webhooks.module';

/**
 * The console's HTTP API under /console/api: members signed in by session, never API keys.
 * Every write goes to the app that owns it, through the same services the admin CLI uses.
 * One module per domain; their order here is the order of docs/console-openapi.json, which
 * is built from this module's imports (openapi/console-openapi-document.ts).
 */
@Module({
  imports: [
    ConsoleSignInModule,
    ConsoleKeysModule,
    ConsoleWebhooksModule,
    ConsoleRegisterModule,
    ConsoleActivityModule,
    ConsoleCustomFieldsModule,
    ConsoleBookingsModule,
    ConsoleLicensesModule,
    ConsoleMaintenanceModule,
    ConsoleAuditsModule,
    ConsoleImportsModule,
    ConsoleRemindersModule,
    ConsoleLocationsModule,
    ConsoleCategoriesModule,
    ConsoleUsageModule,
    ConsoleCalendarFeedModule,
  ],
})
export class ConsoleModule {}
