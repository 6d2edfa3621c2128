import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../keys/api-keys.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { AdminRpcController } from './admin.rpc-controller';
import { KeysService } from './keys.service';
import { WorkspacesService } from './workspaces.service';

/** Console work the gateway owns (workspaces, plans, keys), on its admin queue. */
@Module({
  imports: [ApiKeysModule, RegisterClientModule],
  controllers: [AdminRpcController],
  providers: [WorkspacesService, KeysService],
  exports: [WorkspacesService, KeysService],
})
export class AdminModule {}
