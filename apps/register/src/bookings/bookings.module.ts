import { Module } from '@nestjs/common';
import { DueDatesModule } from '../due-dates/due-dates.module';
import { BookingDueDates } from './booking-due-dates';
import { BookingsRpcController } from './bookings.rpc-controller';
import { BookingsService } from './bookings.service';

@Module({
  imports: [DueDatesModule],
  controllers: [BookingsRpcController],
  providers: [BookingsService, BookingDueDates],
  exports: [BookingsService],
})
export class BookingsModule {}
