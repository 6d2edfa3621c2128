import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleSignInModule } from '../sign-in/console-sign-in.module';
import { ConsoleCalendarFeedController } from './console-calendar-feed.controller';

/** The member's calendar feed URL, which the register keeps. */
@Module({
  imports: [ConsoleSessionModule, ConsoleSignInModule, RegisterClientModule],
  controllers: [ConsoleCalendarFeedController],
})
export class ConsoleCalendarFeedModule {}
