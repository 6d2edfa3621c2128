import { Module } from '@nestjs/common';
import { BookingsRpcController } from './bookings.rpc-controller';
import { BookingsService } from './bookings.service';

@Module({
  controllers: [BookingsRpcController],
  providers: [BookingsService],
})
export class BookingsModule {}
