import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { AuditJobs } from './audit-jobs';
import { AuditsRpcController } from './audits.rpc-controller';
import { AuditsService } from './audits.service';

@Module({
  imports: [AssetsModule],
  controllers: [AuditsRpcController],
  providers: [AuditsService, AuditJobs],
})
export class AuditsModule {}
