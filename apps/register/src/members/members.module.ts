import { Module } from '@nestjs/common';
import { MembersAdminRpcController, MembersRpcController } from './members.rpc-controller';
import { InvitationPruner } from './invitation-pruner';
import { MembersService } from './members.service';

@Module({
  controllers: [MembersRpcController, MembersAdminRpcController],
  providers: [MembersService, InvitationPruner],
})
export class MembersModule {}
