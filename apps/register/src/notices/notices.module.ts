import { Module } from '@nestjs/common';
import { NoticesRpcController } from './notices.rpc-controller';
import { NoticesService } from './notices.service';

@Module({
  controllers: [NoticesRpcController],
  providers: [NoticesService],
})
export class NoticesModule {}
