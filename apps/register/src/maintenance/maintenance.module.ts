import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { MaintenanceRpcController } from './maintenance.rpc-controller';
import { MaintenanceService } from './maintenance.service';

@Module({
  imports: [AssetsModule],
  controllers: [MaintenanceRpcController],
  providers: [MaintenanceService],
})
export class MaintenanceModule {}
