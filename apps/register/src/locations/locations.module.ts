import { Module } from '@nestjs/common';
import { LocationsRpcController } from './locations.rpc-controller';
import { LocationsService } from './locations.service';

@Module({
  controllers: [LocationsRpcController],
  providers: [LocationsService],
  exports: [LocationsService],
})
export class LocationsModule {}
