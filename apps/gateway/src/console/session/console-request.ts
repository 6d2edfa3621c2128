import type { MemberRole } from '@custodian/contracts';
import type { FastifyRequest } from 'fastify';
import type { SessionRecord } from './session-store';

/** The member a console request acts as, their role read from the register on this request. */
export interface ConsoleCaller {
  sessionId: string;
  email: string;
  workspaceId: string;
  memberId: string;
  role: MemberRole;
}

export type ConsoleRequest = FastifyRequest & {
  consoleCaller?: ConsoleCaller;
  consoleSession?: { id: string; record: SessionRecord };
};

export function sessionIdOf(request: FastifyRequest): string | undefined {
  return request.cookies?.custodian_session;
}
