import { Module } from '@nestjs/common';
import { DueDatesModule } from '../due-dates/due-dates.module';
import { ReminderDueDates } from './reminder-due';
import { RemindersRpcController } from './reminders.rpc-controller';
import { RemindersService } from './reminders.service';

@Module({
  imports: [DueDatesModule],
  controllers: [RemindersRpcController],
  providers: [RemindersService, ReminderDueDates],
  exports: [RemindersService],
})
export class RemindersModule {}
