import { Module } from '@nestjs/common';
import { GatewayClient } from '../gateway-client/gateway-client';
import { MembersAdminRpcController, MembersRpcController } from './members.rpc-controller';
import { MembersService } from './members.service';

@Module({
  controllers: [MembersRpcController, MembersAdminRpcController],
  providers: [MembersService, GatewayClient],
})
export class MembersModule {}
