import {
  DomainError,
  RegisterAdminRpc,
  permissionsOf,
  type ConsoleMembership,
  type ConsoleSession,
  type ConsoleSessionListItem,
  type PlanName,
  type SignInIdentity,
} from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../../config/gateway-config';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { workspaceNames } from '../../workspaces/workspace.store';
import { sessionIdOf } from '../session/console-request';
import { SESSION_COOKIE, sessionCookieOptions } from '../session/session-cookie';
import { SessionStore, type SessionRecord } from '../session/session-store';

const INVITATION_SCOPE =
  'This session was opened by an invitation and works in that workspace only; sign in with ' +
  'an e-mailed link or your password to switch workspaces or set a password';

/** The identity as a session scoped to one workspace sees it (all of it when unscoped). */
function scoped(identity: SignInIdentity, scope: string | undefined): SignInIdentity {
  if (scope === undefined) return identity;
  return { ...identity, memberships: identity.memberships.filter((m) => m.workspace_id === scope) };
}

/** Opens, reads and ends console sessions, and describes them to the console (ConsoleSession). */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly store: SessionStore,
    private readonly register: RegisterAdminClient,
    private readonly db: DataSource,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /**
   * A new session for a proven identity (link, password, accepted invitation). Always a new
   * id, and the old session (if any) ends: a session id planted before sign-in is worthless.
   */
  async open(
    request: FastifyRequest,
    reply: FastifyReply,
    proven: SignInIdentity,
    preferredWorkspace?: string,
    scope?: string,
  ): Promise<ConsoleSession> {
    const identity = scoped(proven, scope);
    if (identity.memberships.length === 0) {
      throw new DomainError(
        'unauthenticated',
        'This e-mail is not an active member of any workspace',
      );
    }
    const previous = sessionIdOf(request);
    if (previous) await this.store.destroy(previous);
    const chosen =
      identity.memberships.find((m) => m.workspace_id === preferredWorkspace) ??
      (identity.memberships.length === 1 ? identity.memberships[0] : undefined);
    const record = {
      email: identity.email,
      workspaceId: chosen?.workspace_id ?? null,
      memberId: chosen?.member_id ?? null,
      ...(scope === undefined ? {} : { scope }),
    };
    const id = await this.store.create(record, {
      userAgent: request.headers['user-agent'],
      address: request.ip,
    });
    void reply.setCookie(SESSION_COOKIE, id, sessionCookieOptions(this.config));
    return this.describe(reply, { ...record, createdAt: Date.now() }, identity);
  }

  /** The session of the request as the console sees it; signed out when there is none. */
  async current(request: FastifyRequest, reply: FastifyReply): Promise<ConsoleSession> {
    const found = await this.read(request);
    if (!found) return this.signedOut(reply);
    const identity = scoped(
      await this.register.call(RegisterAdminRpc.memberships, { email: found.record.email }),
      found.record.scope,
    );
    if (identity.memberships.length === 0) {
      await this.end(request, reply);
      return this.signedOut(reply);
    }
    return this.describe(reply, found.record, identity);
  }

  async pickWorkspace(
    request: FastifyRequest,
    reply: FastifyReply,
    workspaceId: string,
  ): Promise<ConsoleSession> {
    const found = await this.read(request);
    if (!found) throw new DomainError('unauthenticated', 'You are not signed in; sign in again');
    if (found.record.scope !== undefined && found.record.scope !== workspaceId) {
      throw new DomainError('forbidden', INVITATION_SCOPE);
    }
    const identity = await this.register.call(RegisterAdminRpc.memberships, {
      email: found.record.email,
    });
    const membership = identity.memberships.find((m) => m.workspace_id === workspaceId);
    // A workspace of which the e-mail is not a member looks like one that does not exist.
    if (!membership)
      throw new DomainError(
        'not_found',
        `workspace_id ${workspaceId} is not one of your workspaces`,
      );
    const record = { ...found.record, workspaceId, memberId: membership.member_id };
    await this.store.update(found.id, record);
    return this.describe(reply, record, identity);
  }

  /** The signed-in e-mail's sessions, in every browser, most recently used first. */
  async list(request: FastifyRequest): Promise<ConsoleSessionListItem[]> {
    const found = await this.signedIn(request);
    const listed = await this.store.list(found.record.email, found.id);
    return listed.map(({ handle, current, record }) => ({
      id: handle,
      current,
      device: record.userAgent ?? null,
      address: record.address ?? null,
      signed_in_at: new Date(record.createdAt).toISOString(),
      last_seen_at: new Date(record.lastSeenAt ?? record.createdAt).toISOString(),
    }));
  }

  /** Signs one of the e-mail's sessions out (this one too: then the cookie goes). */
  async endOne(request: FastifyRequest, reply: FastifyReply, handle: string): Promise<void> {
    const found = await this.signedIn(request);
    const current = (await this.store.list(found.record.email, found.id)).find(
      (each) => each.handle === handle,
    );
    if (!current) throw new DomainError('not_found', `session ${handle} not found`);
    await this.store.end(found.record.email, found.id, { handle });
    if (current.current) void reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config));
  }

  /** Signs out every session of the e-mail but this one; returns how many. */
  async endOthers(request: FastifyRequest): Promise<number> {
    const found = await this.signedIn(request);
    return this.store.end(found.record.email, found.id, { allBut: 'current' });
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = sessionIdOf(request);
    if (id) await this.store.destroy(id);
    void reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.config));
  }

  /**
   * The signed-in e-mail, for routes about the account rather than a workspace (its password):
   * not to a session an invitation opened, which proves that invitation only.
   */
  async email(request: FastifyRequest): Promise<string> {
    const found = await this.read(request);
    if (!found) throw new DomainError('unauthenticated', 'You are not signed in; sign in again');
    if (found.record.scope !== undefined) throw new DomainError('forbidden', INVITATION_SCOPE);
    return found.record.email;
  }

  private async signedIn(request: FastifyRequest): Promise<{ id: string; record: SessionRecord }> {
    const found = await this.read(request);
    if (!found) throw new DomainError('unauthenticated', 'You are not signed in; sign in again');
    return found;
  }

  private async read(
    request: FastifyRequest,
  ): Promise<{ id: string; record: SessionRecord } | null> {
    const id = sessionIdOf(request);
    const record = id ? await this.store.read(id) : null;
    return id && record ? { id, record } : null;
  }

  private signedOut(reply: FastifyReply): ConsoleSession {
    return {
      signed_in: false,
      csrf_token: reply.generateCsrf(),
      email: null,
      workspace: null,
      member: null,
      permissions: [],
      memberships: [],
    };
  }

  private async describe(
    reply: FastifyReply,
    record: SessionRecord,
    identity: SignInIdentity,
  ): Promise<ConsoleSession> {
    const workspaces = await this.workspaces(identity.memberships.map((m) => m.workspace_id));
    const memberships: ConsoleMembership[] = identity.memberships.flatMap((m) => {
      const workspace = workspaces.get(m.workspace_id);
      return workspace
        ? [
            {
              workspace_id: m.workspace_id,
              workspace_name: workspace.name,
              plan: workspace.plan,
              role: m.role,
            },
          ]
        : [];
    });
    const current = identity.memberships.find(
      (m) => m.workspace_id === record.workspaceId && m.member_id === record.memberId,
    );
    const workspace = current ? workspaces.get(current.workspace_id) : undefined;
    return {
      signed_in: true,
      csrf_token: reply.generateCsrf(),
      email: identity.email,
      workspace: current && workspace ? { id: current.workspace_id, ...workspace } : null,
      member:
        current && workspace
          ? { id: current.member_id, role: current.role, name: current.name }
          : null,
      permissions: current && workspace ? permissionsOf(current.role) : [],
      memberships,
    };
  }

  private async workspaces(ids: string[]): Promise<Map<string, { name: string; plan: PlanName }>> {
    const rows = await workspaceNames(this.db, ids);
    return new Map(rows.map((row) => [row.id, { name: row.name, plan: row.plan }]));
  }
}
