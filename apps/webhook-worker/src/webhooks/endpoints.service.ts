import {
  DomainError,
  EVENT_KEYS,
  isEventKey,
  SYSTEM_ACTOR,
  WEBHOOK_ENDPOINT_LIMITS,
  type ActivityRecord,
  type ConsoleActorRef,
  type ConsoleEndpointUpdateMessage,
  type ConsoleEndpointView,
  type CreatedConsoleEndpointView,
  type WebhookEndpointView,
  type WebhookListInput,
} from '@custodian/contracts';
import { AppliedWrites, WorkspacePlans } from '@custodian/messaging';
import { ActivityLog, changedFields, newId } from '@custodian/persistence';
import type { SecretCipher } from '@custodian/secret-cipher';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { EndpointEvents } from './endpoint-events';
import {
  countEndpoints,
  deleteEndpoint,
  endpointViews,
  endpointWithUrl,
  findEndpoint,
  insertEndpoint,
  lockEndpoint,
  lockWorkspaceEndpoints,
  storedSecrets,
  updateEndpoint,
  workspaceEndpoints,
  type EndpointRow,
} from './endpoint.store';
import { newSigningSecret, signingSecretCipher } from './signing-secrets';
import { vetTargetUrl } from './target-url';

/** What creates an endpoint: the CLI's comma list of events or the console's list. */
export interface EndpointDraft {
  workspace: string;
  url: string;
  events: string | readonly string[];
  description?: string | null;
  /** The console member who adds it; absent from the CLI. */
  actor?: ConsoleActorRef;
}

/** Who changes an endpoint: the console member, or the admin CLI. */
export function endpointActivity(
  actor: ConsoleActorRef | undefined,
): Pick<ActivityRecord, 'source' | 'actor'> {
  if (!actor) return { source: 'cli', actor: SYSTEM_ACTOR };
  return { source: 'console', actor: { type: 'member', id: actor.id, name: actor.email } };
}

/** The endpoint fields the feed compares. */
const ENDPOINT_FIELDS: Record<string, (endpoint: EndpointRow) => unknown> = {
  url: (endpoint) => endpoint.url,
  events: (endpoint) => endpoint.events.join(', '),
  description: (endpoint) => endpoint.description,
  enabled: (endpoint) => endpoint.enabled,
};

/**
 * `*` alone, or known event keys (a comma list from the CLI, a list from the console); an
 * unknown key is refused by name.
 */
export function parseEvents(raw: string | readonly string[]): string[] {
  const keys = [
    ...new Set(
      (typeof raw === 'string' ? raw.split(',') : raw).map((key) => key.trim()).filter(Boolean),
    ),
  ];
  if (keys.length === 0)
    throw new DomainError('invalid_input', 'events must name at least one event key or *');
  if (keys.includes('*')) {
    if (keys.length > 1)
      throw new DomainError('invalid_input', 'events is either * or a list of event keys');
    return ['*'];
  }
  const unknown = keys.filter((key) => !isEventKey(key));
  if (unknown.length > 0) {
    throw new DomainError(
      'invalid_input',
      `unknown event key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known keys: ${EVENT_KEYS.join(', ')}`,
    );
  }
  return keys;
}

/** A description as stored: blank is none. */
function descriptionOf(raw: string | null | undefined): string | null {
  const trimmed = raw?.trim();
  return trimmed ? trimmed : null;
}

/**
 * Webhook endpoints of a workspace: one implementation for the admin CLI and the console (the
 * Test ping and the CLI's delivery log are deliveries: delivery/endpoint-deliveries.ts). A console caller always names its
 * workspace, and an endpoint of another one is not found; the CLI (an operator) may name
 * none.
 */
@Injectable()
export class EndpointsService {
  private readonly logger = new Logger('EndpointsService');
  private readonly secrets: SecretCipher;

  constructor(
    private readonly db: DataSource,
    private readonly plans: WorkspacePlans,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    private readonly activity: ActivityLog,
    private readonly events: EndpointEvents,
    private readonly writes: AppliedWrites,
  ) {
    this.secrets = signingSecretCipher(config);
  }

  async create(input: EndpointDraft): Promise<CreatedConsoleEndpointView> {
    const events = parseEvents(input.events);
    const url = await this.vetUrl(input.url);
    // The worker's copy of the gateway's plan facts (ADR 0019), not a call to the gateway.
    const workspace = await this.plans.of(input.workspace);
    if (!workspace) throw new DomainError('not_found', `Workspace ${input.workspace} not found`);
    if (!workspace.api_access) {
      throw new DomainError(
        'forbidden',
        `Webhooks need the Pro plan or above; workspace ${input.workspace} is on the ${workspace.plan} plan`,
      );
    }
    const id = newId('whe');
    const secret = newSigningSecret();
    // Stored encrypted; the caller gets it in plain text. Applied once per request: a request
    // handed over again (a redelivery, a console retry with its Idempotency-Key) is answered
    // with the endpoint the first one created, not a second endpoint; the stored reply keeps
    // its id only, never the secret.
    const { reply, result } = await this.writes.apply(
      workspace.workspace_id,
      async (tx) => {
        // The count and the URLs stay as read until this commits (two creates at once).
        await lockWorkspaceEndpoints(tx, workspace.workspace_id);
        const limit = WEBHOOK_ENDPOINT_LIMITS[workspace.plan];
        if ((await countEndpoints(tx, workspace.workspace_id)) >= limit) {
          throw new DomainError(
            'limit_reached',
            `Webhook endpoint limit of ${limit} reached on the ${workspace.plan} plan; ` +
              'delete an endpoint to add another',
          );
        }
        await this.refuseTakenUrl(tx, workspace.workspace_id, url, null);
        const created = await insertEndpoint(tx, {
          id,
          workspace_id: workspace.workspace_id,
          url,
          events,
          description: descriptionOf(input.description),
          secret: this.secrets.encrypt(secret),
        });
        await this.activity.record(tx, workspace.workspace_id, {
          ...endpointActivity(input.actor),
          recordType: 'endpoint',
          recordId: id,
          recordName: url,
          action: 'created',
          changes: changedFields(null, created, ENDPOINT_FIELDS),
        });
        return id;
      },
      (createdId) => ({ id: createdId }),
    );
    const view = await this.get(workspace.workspace_id, reply.id);
    if (result) return { ...view, secret };
    const stored = await storedSecrets(this.db, workspace.workspace_id, reply.id);
    if (!stored) throw notFound(reply.id);
    return { ...view, secret: this.secrets.decrypt(stored.secret) };
  }

  /** The workspace's endpoints with their state and last 24 h, oldest first. */
  consoleList(workspace: string): Promise<ConsoleEndpointView[]> {
    return endpointViews(this.db, workspace);
  }

  async get(workspace: string, id: string): Promise<ConsoleEndpointView> {
    const [view] = await endpointViews(this.db, workspace, id);
    if (!view) throw notFound(id);
    return view;
  }

  /**
   * Changes what is given: the url is vetted again, events parsed as at creation,
   * `description: null` clears it. `enabled: false` disables it by hand (`manual`; its
   * pending deliveries wait); `enabled: true` enables it, also one disabled for its failures,
   * and starts its run afresh.
   */
  async update(input: ConsoleEndpointUpdateMessage): Promise<ConsoleEndpointView> {
    const endpoint = await this.endpoint(input.id, input.workspace);
    const url = input.url === undefined ? null : await this.vetUrl(input.url);
    const events = input.events === undefined ? null : parseEvents(input.events);
    const enabled = input.enabled ?? null;
    // Applied once per request; a repeat answers with the endpoint as it is now.
    await this.writes.run(input.workspace, async (tx) => {
      if (url !== null) {
        await lockWorkspaceEndpoints(tx, input.workspace);
        await this.refuseTakenUrl(tx, input.workspace, url, endpoint.id);
      }
      // Locked, so the feed's "before" is the version this update replaces.
      const before = await lockEndpoint(tx, endpoint.id);
      const updated = await updateEndpoint(tx, {
        id: endpoint.id,
        url,
        events,
        setDescription: input.description !== undefined,
        description: descriptionOf(input.description),
        enabled,
      });
      const changes = changedFields(before, updated, ENDPOINT_FIELDS);
      if (changes.length === 0) return;
      const onlyEnabled = changes.length === 1 && changes[0]?.field === 'enabled';
      await this.activity.record(tx, input.workspace, {
        ...endpointActivity(input.actor),
        recordType: 'endpoint',
        recordId: endpoint.id,
        recordName: updated.url,
        action: onlyEnabled ? (updated.enabled ? 'enabled' : 'disabled') : 'updated',
        changes,
      });
    });
    // Its waiting deliveries may go now.
    if (enabled && !endpoint.enabled) this.events.enabled(endpoint.id);
    return this.get(input.workspace, endpoint.id);
  }

  /**
   * Deletes the endpoint with its deliveries and their attempts (its log goes with it); an
   * attempt in flight is sent but not recorded. The console names its workspace; the CLI may
   * not.
   */
  async delete(id: string, workspace?: string, actor?: ConsoleActorRef): Promise<EndpointRow> {
    const endpoint = await this.endpoint(id, workspace);
    return this.db.transaction((tx) => this.deleteIn(tx, endpoint, actor));
  }

  /**
   * The console's delete: answers with the endpoint as the console showed it, before it went.
   * Applied once per request with that view as the stored reply, so a retry of a delete that
   * was applied is answered as the first one was, not with a 404.
   */
  async deleteFromConsole(
    id: string,
    workspace: string,
    actor?: ConsoleActorRef,
  ): Promise<ConsoleEndpointView> {
    return this.writes.run(workspace, async (tx) => {
      const view = await this.get(workspace, id);
      await this.deleteIn(tx, await this.endpoint(id, workspace), actor);
      return view;
    });
  }

  private async deleteIn(
    tx: EntityManager,
    endpoint: EndpointRow,
    actor: ConsoleActorRef | undefined,
  ): Promise<EndpointRow> {
    const before = await lockEndpoint(tx, endpoint.id);
    await deleteEndpoint(tx, endpoint.id);
    await this.activity.record(tx, endpoint.workspace_id, {
      ...endpointActivity(actor),
      recordType: 'endpoint',
      recordId: endpoint.id,
      recordName: before.url,
      action: 'deleted',
      changes: [],
    });
    return before;
  }

  /** One endpoint per URL in a workspace: another with it is a 409 that names it. */
  private async refuseTakenUrl(
    tx: EntityManager,
    workspace: string,
    url: string,
    except: string | null,
  ): Promise<void> {
    const taken = await endpointWithUrl(tx, workspace, url, except);
    if (taken) {
      throw new DomainError(
        'conflict',
        `url: webhook endpoint ${taken.id} already sends to ${url}; ` +
          'an endpoint subscribes to several events, so change its events instead',
      );
    }
  }

  async list(input: WebhookListInput): Promise<WebhookEndpointView[]> {
    const rows = await workspaceEndpoints(this.db, input.workspace);
    return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  }

  /** The target URL checked (production: https, every resolved address public), or a 400. */
  private async vetUrl(raw: string): Promise<string> {
    try {
      return await vetTargetUrl(raw, this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true');
    } catch (error) {
      this.logger.warn(`webhook target refused: ${(error as Error).message}`);
      throw error;
    }
  }

  /** The endpoint, of the workspace when one is named; else not_found, whoever's it is. */
  async endpoint(id: string, workspace?: string): Promise<EndpointRow> {
    const row = await findEndpoint(this.db, id, workspace ?? null);
    if (!row) throw notFound(id);
    return row;
  }
}

function notFound(id: string): DomainError {
  return new DomainError('not_found', `webhook endpoint ${id} not found`);
}
