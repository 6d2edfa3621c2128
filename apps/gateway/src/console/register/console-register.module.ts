import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleAssetBulkController } from './console-asset-bulk.controller';
import { ConsoleAssetsController } from './console-assets.controller';
import { ConsoleMembersController } from './console-members.controller';
import { ConsolePeopleController } from './console-people.controller';
import { ConsoleRequestsController } from './console-requests.controller';
import { ConsoleRegister } from './console-register';

/** Assets, people, members and asset requests, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [
    ConsoleAssetsController,
    ConsoleAssetBulkController,
    ConsolePeopleController,
    ConsoleMembersController,
    ConsoleRequestsController,
  ],
  providers: [ConsoleRegister],
})
export class ConsoleRegisterModule {}
