import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleMaintenanceController } from './console-maintenance.controller';

/** Maintenance records of assets, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleMaintenanceController],
  providers: [ConsoleRegister],
})
export class ConsoleMaintenanceModule {}
