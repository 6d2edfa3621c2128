import {
  EmailInput,
  PasswordSignInInput,
  RegisterAdminRpc,
  SetPasswordInput,
  SignInLinkInput,
  SignInTokenInput,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { SignInService } from './sign-in.service';

/** Console sign-in on the register's admin queue; the gateway is its one caller. */
@Controller()
export class SignInRpcController {
  constructor(private readonly signIn: SignInService) {}

  @Handles(RegisterAdminRpc.signInLink, REGISTER_ADMIN_TRANSPORT)
  sendLink(@Payload() input: SignInLinkInput) {
    return this.signIn.sendLink(input);
  }

  @Handles(RegisterAdminRpc.signInRedeem, REGISTER_ADMIN_TRANSPORT)
  redeem(@Payload() input: SignInTokenInput) {
    return this.signIn.redeem(input);
  }

  @Handles(RegisterAdminRpc.signInPassword, REGISTER_ADMIN_TRANSPORT)
  signInWithPassword(@Payload() input: PasswordSignInInput) {
    return this.signIn.signInWithPassword(input);
  }

  @Handles(RegisterAdminRpc.passwordSet, REGISTER_ADMIN_TRANSPORT)
  setPassword(@Payload() input: SetPasswordInput) {
    return this.signIn.setPassword(input);
  }

  @Handles(RegisterAdminRpc.memberships, REGISTER_ADMIN_TRANSPORT)
  memberships(@Payload() input: EmailInput) {
    return this.signIn.memberships(input);
  }
}
