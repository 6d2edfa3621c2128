import type { MemberRole } from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import type { FastifyRequest } from 'fastify';
import type { SessionRecord } from './session-store';

/** The member a console request acts as, their role read from the register on this request. */
export interface ConsoleCaller {
  sessionId: string;
  email: string;
  workspaceId: string;
  memberId: string;
  role: MemberRole;
  /**
   * A write's identity from its Idempotency-Key (http/idempotency-key.ts), scoped to this
   * member: the register and the worker apply the write once and answer a retry with the
   * first answer. Absent on reads and on writes sent without the header.
   */
  identity?: RequestIdentity;
}

export type ConsoleRequest = FastifyRequest & {
  consoleCaller?: ConsoleCaller;
  consoleSession?: { id: string; record: SessionRecord };
};

export function sessionIdOf(request: FastifyRequest): string | undefined {
  return request.cookies?.custodian_session;
}
