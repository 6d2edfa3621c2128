import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleBookingsController } from './console-bookings.controller';

/**
 * Bookings, an asset's availability and the booking settings, owned by the register. The
 * register decides on each call what the member's role lets them do with a booking (theirs or
 * anyone's, requested or confirmed at once); the routes' permissions only open the door.
 */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleBookingsController],
  providers: [ConsoleRegister],
})
export class ConsoleBookingsModule {}
