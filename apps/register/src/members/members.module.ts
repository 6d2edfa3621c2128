import { Module } from '@nestjs/common';
import { MembersAdminRpcController, MembersRpcController } from './members.rpc-controller';
import { MembersService } from './members.service';

@Module({
  controllers: [MembersRpcController, MembersAdminRpcController],
  providers: [MembersService],
})
export class MembersModule {}
