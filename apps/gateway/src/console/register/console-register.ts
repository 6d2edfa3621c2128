import {
  CONSOLE_KEY_PREFIX,
  DomainError,
  type CallerContext,
  type CallerMessage,
  type ListMessage,
  type ListReply,
  type Page,
  type RawQuery,
  type ReplyOf,
  type RequestOf,
  type RpcContract,
} from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { RegisterClient } from '../../register-client/register-client';
import type { ConsoleCaller } from '../session/console-request';

/** The key id a console call carries: no key, but who it acts for (register logs name it). */
export function consoleKeyId(memberId: string): string {
  return `${CONSOLE_KEY_PREFIX}${memberId}`;
}

/**
 * The register's API queue for a signed-in member: the same messages, services, validation,
 * plan limits and events as an API key's calls, with the workspace's current plan read on
 * each call (a plan changed a moment ago applies at once). The console is not plan-gated: a
 * workspace without API access still keeps its register in the console.
 */
@Injectable()
export class ConsoleRegister {
  constructor(
    private readonly register: RegisterClient,
    private readonly workspaces: WorkspacesService,
  ) {}

  async call<C extends RpcContract<CallerMessage>>(
    contract: C,
    caller: ConsoleCaller,
    message: Omit<RequestOf<C>, 'caller'>,
  ): Promise<ReplyOf<C>> {
    const workspace = await this.workspaces.get(caller.workspaceId);
    const context: CallerContext = {
      workspaceId: workspace.id,
      keyId: consoleKeyId(caller.memberId),
      // What a member may do is the route's permission (ConsoleAccess), checked before this.
      scope: 'write',
      plan: workspace.plan,
      limits: workspace.limits,
      actorName: caller.email,
    };
    return this.register.callAs(contract, context, message, caller.identity);
  }

  /**
   * A list message asked always with a page (page 1 when the query has none), so the answer
   * is a page: the console never takes the API's bare array.
   */
  async page<T>(
    contract: RpcContract<ListMessage, ListReply<T>>,
    caller: ConsoleCaller,
    query: RawQuery,
  ): Promise<Page<T>> {
    const answer = await this.call(contract, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
    if ('data' in answer && 'total' in answer) return answer;
    throw new DomainError('internal', 'The register answered a page request without a page');
  }
}
