import {
  DomainError,
  RegisterAdminRpc,
  roleMay,
  type ConsolePermission,
  type MemberView,
} from '@custodian/contracts';
import {
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiCookieAuth, ApiExtension } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { identityOf } from '../../http/idempotency-key';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { sessionIdOf, type ConsoleCaller, type ConsoleRequest } from './console-request';
import { CONSOLE_PER_RECORD_LIMIT, ConsoleWriteLimits } from './console-write-limits';
import { SessionStore } from './session-store';

const CONSOLE_PERMISSION = 'custodian:console-permission';
export const CONSOLE_COOKIE_SCHEME = 'consoleSession';
/** Read by the console document: the permission a route needs. */
export const PERMISSION_EXTENSION = 'x-console-permission';

/** What each permission lets a member do, in words for a refusal. */
const DOING: Record<ConsolePermission, string> = {
  'workspace.view': 'open this workspace',
  'keys.view': 'see API keys',
  'keys.manage': 'create or revoke API keys',
  'webhooks.view': 'see webhooks and the delivery log',
  'webhooks.manage': 'change webhooks or resend deliveries',
  'webhooks.secrets': 'see or rotate signing secrets',
  'assets.view': 'see assets',
  'assets.manage': 'change assets',
  'assets.scan': 'scan assets',
  'people.view': 'see people',
  'people.manage': 'change people',
  'members.view': 'see members',
  'members.manage': 'invite or remove members',
  'requests.view': 'ask for assets',
  'requests.decide': 'approve or reject asset requests',
  'bookings.view': 'see bookings',
  'bookings.request': 'book assets',
  'bookings.manage': 'confirm, reject, hand out or take back bookings, or change their settings',
  'licenses.view': 'see licences',
  'licenses.manage': 'add, change or delete licences, or assign their seats',
  'maintenance.view': 'see maintenance records',
  'maintenance.manage': 'log, change or resolve maintenance records',
  'reminders.view': 'see reminders',
  'reminders.manage': 'add, change or cancel reminders',
  'locations.view': 'see locations',
  'locations.manage': 'add, rename, move or delete locations',
  'categories.view': 'see categories',
  'categories.manage': 'add, rename or delete categories',
  'audits.view': 'see audits',
  'audits.manage': 'start, scan into, complete or cancel audits',
  'imports.manage': 'import assets or people from CSV files',
};

/**
 * A console route that needs a signed-in member of the session's workspace with `permission`.
 * Only the session cookie counts: an API key on the request opens nothing here.
 */
export function ConsoleAccess(permission: ConsolePermission): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(CONSOLE_PERMISSION, permission),
    UseGuards(ConsoleAccessGuard),
    ApiCookieAuth(CONSOLE_COOKIE_SCHEME),
    ApiExtension(PERMISSION_EXTENSION, permission),
  );
}

/** Read by the console document: a write that does not take an Idempotency-Key, and why. */
export const WITHOUT_IDEMPOTENCY_KEY = 'x-without-idempotency-key';

/**
 * A console write whose Idempotency-Key is not kept: doing it twice does no harm (`why`).
 * Every other console write is applied once per member and key (ConsoleCaller.identity).
 */
export function WithoutIdempotencyKey(why: string): MethodDecorator {
  return ApiExtension(WITHOUT_IDEMPOTENCY_KEY, why);
}

/**
 * The member the request acts as (set by ConsoleAccessGuard). `Caller('unkeyed')` on a write
 * marked WithoutIdempotencyKey: its Idempotency-Key is not read, and its body (a file's
 * stream, for an upload) is not fingerprinted.
 */
export const Caller = createParamDecorator(
  (data: 'unkeyed' | undefined, context: ExecutionContext): ConsoleCaller => {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const caller = request.consoleCaller;
    if (!caller) throw new Error('@Caller() on a route without @ConsoleAccess()');
    if (request.method === 'GET' || request.method === 'HEAD' || data === 'unkeyed') return caller;
    // Every console write may carry an Idempotency-Key; the member's, not the workspace's.
    const identity = identityOf(request, {
      workspaceId: caller.workspaceId,
      sender: `member:${caller.memberId}`,
    });
    return identity ? { ...caller, identity } : caller;
  },
);

/**
 * The member's role is asked of the register on every request, never cached in the session:
 * a member removed or demoted loses what they may do on their very next request. A write that
 * may go ahead is then counted against the console's write limits (ConsoleWriteLimits), so
 * only what a member may do counts, and a refused write did nothing.
 */
@Injectable()
export class ConsoleAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionStore,
    private readonly register: RegisterAdminClient,
    private readonly writes: ConsoleWriteLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const permission = this.reflector.getAllAndOverride<ConsolePermission>(CONSOLE_PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const id = sessionIdOf(request);
    const record = id ? await this.sessions.read(id) : null;
    if (!id || !record) {
      throw new DomainError(
        'unauthenticated',
        'You are not signed in (or your session ended); sign in again',
      );
    }
    if (!record.workspaceId || !record.memberId) {
      throw new DomainError('forbidden', 'Pick a workspace first');
    }
    const member = await this.currentMember(record.workspaceId, record.memberId);
    if (!member || member.status !== 'active') {
      await this.sessions.update(id, { ...record, workspaceId: null, memberId: null });
      throw new DomainError('forbidden', 'You are no longer a member of this workspace');
    }
    if (!roleMay(member.role, permission)) {
      throw new DomainError(
        'forbidden',
        `Your role (${member.role}) cannot ${DOING[permission]}; ask an owner or admin`,
      );
    }
    const perRecord = this.reflector.get<string | undefined>(
      CONSOLE_PER_RECORD_LIMIT,
      context.getHandler(),
    );
    const recordId = (request.params as { id?: string } | undefined)?.id;
    await this.writes.count(
      {
        method: request.method,
        sessionId: id,
        workspaceId: record.workspaceId,
        ...(perRecord && recordId ? { perRecord: { what: perRecord, id: recordId } } : {}),
      },
      context.switchToHttp().getResponse<FastifyReply>(),
    );
    // The record as read for this request: a later guard (RecentSignIn) needs no second read.
    request.consoleSession = { id, record };
    request.consoleCaller = {
      sessionId: id,
      email: record.email,
      workspaceId: record.workspaceId,
      memberId: record.memberId,
      role: member.role,
    };
    return true;
  }

  private async currentMember(workspace: string, id: string): Promise<MemberView | null> {
    try {
      return await this.register.call(RegisterAdminRpc.memberGet, { workspace, id });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      throw error;
    }
  }
}
