import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { PeopleModule } from '../people/people.module';
import { ImportJobs } from './import-jobs';
import { ImportPruner } from './import-pruner';
import { ImportsRpcController } from './imports.rpc-controller';
import { ImportsService } from './imports.service';

/** CSV imports of assets and people (issue 35): staged rows, a dry run, a resumable job. */
@Module({
  imports: [AssetsModule, PeopleModule],
  controllers: [ImportsRpcController],
  providers: [ImportsService, ImportJobs, ImportPruner],
  exports: [ImportJobs],
})
export class ImportsModule {}
