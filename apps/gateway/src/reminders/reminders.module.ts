import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { RemindersController } from './reminders.controller';

/** The public API's reminder routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [RemindersController],
})
export class RemindersModule {}
