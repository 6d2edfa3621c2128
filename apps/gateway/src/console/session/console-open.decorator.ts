import { SetMetadata } from '@nestjs/common';

/**
 * A console route anyone may call without a session (reading the session, signing in). It
 * still takes the CSRF token when it changes state (console-csrf.ts); lint checks that every
 * route says who may call it.
 */
export const ConsoleOpen = (): MethodDecorator => SetMetadata('custodian:console-open', true);
