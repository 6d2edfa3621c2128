import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { LocationsController } from './locations.controller';

/** The public API's locations routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [LocationsController],
})
export class LocationsModule {}
