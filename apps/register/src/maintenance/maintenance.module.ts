import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { RemindersModule } from '../reminders/reminders.module';
import { MaintenanceRpcController } from './maintenance.rpc-controller';
import { MaintenanceService } from './maintenance.service';

@Module({
  imports: [AssetsModule, RemindersModule],
  controllers: [MaintenanceRpcController],
  providers: [MaintenanceService],
})
export class MaintenanceModule {}
