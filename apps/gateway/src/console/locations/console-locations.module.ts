import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleLocationsController } from './console-locations.controller';

/** Locations, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleLocationsController],
  providers: [ConsoleRegister],
})
export class ConsoleLocationsModule {}
