import type { MemberView } from '../members/member.views';
import { reply, rpc } from '../rpc/contract';
import {
  EmailInput,
  MemberRefInput,
  PasswordSignInInput,
  SetPasswordInput,
  SignInLinkInput,
  SignInTokenInput,
} from './sign-in.inputs';
import type { PasswordSetView, SignInIdentity, SignInLinkView } from './sign-in.views';

/** Console sign-in, on the register's admin queue (RegisterAdminRpc). */
export const SIGN_IN_ADMIN_RPC = {
  signInLink: rpc('admin.signin.link', SignInLinkInput, reply<SignInLinkView>()),
  signInRedeem: rpc('admin.signin.redeem', SignInTokenInput, reply<SignInIdentity>()),
  // argon2id (19 MiB, 2 passes): on the admin queue's heavy lane, a few at a time, never
  // ahead of the role check every console request makes (memberGet).
  signInPassword: rpc('admin.signin.password', PasswordSignInInput, reply<SignInIdentity>(), {
    heavy: true,
  }),
  passwordSet: rpc('admin.password.set', SetPasswordInput, reply<PasswordSetView>(), {
    heavy: true,
  }),
  memberships: rpc('admin.member.memberships', EmailInput, reply<SignInIdentity>()),
  memberGet: rpc('admin.member.get', MemberRefInput, reply<MemberView>()),
};
