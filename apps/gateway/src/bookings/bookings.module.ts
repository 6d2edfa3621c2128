import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { AvailabilityController } from './availability.controller';
import { BookingSettingsController } from './booking-settings.controller';
import { BookingsController } from './bookings.controller';

/** The public API's bookings routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [BookingsController, AvailabilityController, BookingSettingsController],
})
export class BookingsModule {}
