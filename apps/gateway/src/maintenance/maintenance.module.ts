import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { MaintenanceController } from './maintenance.controller';

/** The public API's maintenance routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [MaintenanceController],
})
export class MaintenanceModule {}
