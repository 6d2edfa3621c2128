import { DomainError, RegisterAdminRpc } from '@custodian/contracts';
import {
  Inject,
  Injectable,
  UseGuards,
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { GatewayConfig } from '../../config/gateway-config';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import type { ConsoleRequest } from '../session/console-request';
import { SessionStore } from '../session/session-store';
import { SignInLimiter } from './sign-in-limiter';

/** Where the console sends the password again when the sign-in is older. */
export const CONFIRM_PASSWORD_HEADER = 'x-confirm-password';

/** The refusal's message starts with this: the console asks for the password on seeing it. */
export const CONFIRM_PASSWORD_MESSAGE = 'Confirm your password';

/**
 * A route that hands out or changes a secret (an API key created, a signing secret shown or
 * rotated): it needs a sign-in of the last 15 minutes (RECENT_SIGN_IN_SECONDS), or the password again in the
 * `x-confirm-password` header (counted in the account's password limit, and the sign-in is
 * then recent again). Written above @ConsoleAccess: decorators apply from the bottom, and
 * that guard must run first (it names the caller).
 */
export function RecentSignIn(): MethodDecorator {
  return applyDecorators(
    UseGuards(RecentSignInGuard),
    ApiHeader({
      name: CONFIRM_PASSWORD_HEADER,
      required: false,
      description:
        'The password again, when the session’s last sign-in is over 15 minutes old (403 ' +
        'otherwise, its message starting "Confirm your password").',
    }),
  );
}

@Injectable()
export class RecentSignInGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionStore,
    private readonly register: RegisterAdminClient,
    private readonly limiter: SignInLimiter,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const session = request.consoleSession;
    if (!session) throw new Error('@RecentSignIn() on a route without @ConsoleAccess()');
    const { id, record } = session;
    const age = Date.now() - (record.authAt ?? record.createdAt);
    if (age <= this.config.RECENT_SIGN_IN_SECONDS * 1_000) return true;
    const password = request.headers[CONFIRM_PASSWORD_HEADER];
    if (typeof password !== 'string' || password === '') {
      throw new DomainError(
        'forbidden',
        `${CONFIRM_PASSWORD_MESSAGE}: this hands out or changes a secret, and your last ` +
          `sign-in is over ${describeAge(this.config.RECENT_SIGN_IN_SECONDS)} old (or sign in again)`,
      );
    }
    await this.limiter.reservePasswordAttempt(
      record.email,
      context.switchToHttp().getResponse<FastifyReply>(),
    );
    try {
      await this.register.call(RegisterAdminRpc.signInPassword, { email: record.email, password });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthenticated') {
        throw new DomainError('forbidden', `${CONFIRM_PASSWORD_MESSAGE}: that password is wrong`);
      }
      throw error;
    }
    await this.limiter.clearFailedPasswords(record.email);
    await this.sessions.reauthenticated(id, record);
    return true;
  }
}

function describeAge(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = seconds / 60;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
