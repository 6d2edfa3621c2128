import { Module } from '@nestjs/common';
import { SignInLinkPruner } from './sign-in-link-pruner';
import { SignInRpcController } from './sign-in.rpc-controller';
import { SignInService } from './sign-in.service';

@Module({
  controllers: [SignInRpcController],
  providers: [SignInService, SignInLinkPruner],
})
export class SignInModule {}
