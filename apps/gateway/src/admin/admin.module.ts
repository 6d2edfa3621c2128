import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../keys/api-keys.module';
import { KeysService } from '../keys/keys.service';
import { RegisterClientModule } from '../register-client/register-client.module';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AdminRpcController } from './admin.rpc-controller';

/**
 * Console work the gateway owns (workspaces, plans, keys), on its admin queue; the console's
 * modules import it for the same two services. They are provided here, above both folders: a
 * module in workspaces/ would have to import ApiKeysModule for WorkspacesService's
 * WorkspaceChangePublisher, and keys are built on workspaces.
 */
@Module({
  imports: [ApiKeysModule, RegisterClientModule],
  controllers: [AdminRpcController],
  providers: [WorkspacesService, KeysService],
  exports: [WorkspacesService, KeysService],
})
export class AdminModule {}
