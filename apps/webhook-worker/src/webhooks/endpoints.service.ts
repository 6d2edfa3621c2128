import {
  DomainError,
  EVENT_KEYS,
  PING_EVENT,
  isEventKey,
  type CreateWebhookInput,
  type CreatedWebhookView,
  type DeliveriesInput,
  type DeliveryLogEntry,
  type EventData,
  type WebhookEndpointView,
  type WebhookListInput,
  type WebhookTestInput,
  type WebhookTestView,
} from '@custodian/contracts';
import { newId, queryOne } from '@custodian/persistence';
import type { SecretCipher } from '@custodian/secret-cipher';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import type { DeliveryEntity } from '../delivery/delivery.entity';
import { FanOut } from '../delivery/fan-out';
import { GatewayClient } from '../gateway-client/gateway-client';
import type { EndpointEntity } from './endpoint.entity';
import { signingSecretCipher } from './signing-secrets';
import { vetTargetUrl } from './target-url';

/** An endpoint without its secret, which is shown once, at creation. */
type EndpointRow = Omit<EndpointEntity, 'secret'>;

/** `*`, or a comma list of known event keys; an unknown key is refused by name. */
export function parseEvents(raw: string): string[] {
  const keys = [
    ...new Set(
      raw
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
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

/** Webhook endpoints of a workspace, the Test ping and the delivery log (console work). */
@Injectable()
export class EndpointsService {
  private readonly logger = new Logger('EndpointsService');
  private readonly secrets: SecretCipher;

  constructor(
    private readonly db: DataSource,
    private readonly gateway: GatewayClient,
    private readonly fanOut: FanOut,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    this.secrets = signingSecretCipher(config);
  }

  async create(input: CreateWebhookInput): Promise<CreatedWebhookView> {
    const events = parseEvents(input.events);
    const url = await this.vetUrl(input.url);
    const workspace = await this.gateway.workspace(input.workspace);
    if (!workspace.api_access) {
      throw new DomainError(
        'forbidden',
        `Webhooks need the Pro plan or above; workspace ${workspace.id} is on the ${workspace.plan} plan`,
      );
    }
    const id = newId('whe');
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    // Stored encrypted; the caller gets it in plain text, this once.
    await this.db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, description, secret)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, workspace.id, url, events, input.description ?? null, this.secrets.encrypt(secret)],
    );
    return { id, url, events, secret };
  }

  async list(input: WebhookListInput): Promise<WebhookEndpointView[]> {
    const rows = await this.db.query<EndpointRow[]>(
      `SELECT id, workspace_id, url, events, description, enabled, created_at
       FROM delivery.endpoints WHERE workspace_id = $1 ORDER BY created_at, id`,
      [input.workspace],
    );
    return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  }

  /** A `ping` through the live delivery path (signing, retries, timeout, log). */
  async test(input: WebhookTestInput): Promise<WebhookTestView> {
    const endpoint = await this.endpoint(input.id);
    const eventId = newId('evt');
    await this.fanOut.store(
      {
        id: eventId,
        event: PING_EVENT,
        created_at: new Date().toISOString(),
        data: { endpoint: { id: endpoint.id, url: endpoint.url } } satisfies EventData<'ping'>,
        workspace_id: endpoint.workspace_id,
      },
      [endpoint.id],
    );
    const delivery = await queryOne<Pick<DeliveryEntity, 'id'>>(
      this.db,
      `SELECT id FROM delivery.deliveries WHERE event_id = $1 AND endpoint_id = $2`,
      [eventId, endpoint.id],
    );
    return { delivery_id: delivery.id, event_id: eventId };
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(input: DeliveriesInput): Promise<DeliveryLogEntry[]> {
    const limit = input.limit === undefined ? 20 : Number(input.limit);
    await this.endpoint(input.endpoint);
    return this.db.query<DeliveryLogEntry[]>(
      `SELECT d.id AS delivery_id, d.event_id, d.event, d.status,
              COALESCE(json_agg(json_build_object(
                'attempt', a.attempt,
                'started_at', to_char(a.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'duration_ms', a.duration_ms,
                'status_code', a.status_code,
                'error', a.error,
                'response_body', a.response_body) ORDER BY a.attempt)
                FILTER (WHERE a.attempt IS NOT NULL), '[]') AS attempts
       FROM (SELECT * FROM delivery.deliveries WHERE endpoint_id = $1
             ORDER BY created_at DESC, id DESC LIMIT $2) d
       LEFT JOIN delivery.delivery_attempts a ON a.delivery_id = d.id
       GROUP BY d.id, d.event_id, d.event, d.status, d.created_at
       ORDER BY d.created_at DESC, d.id DESC`,
      [input.endpoint, limit],
    );
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

  private async endpoint(id: string): Promise<EndpointRow> {
    const rows = await this.db.query<EndpointRow[]>(
      `SELECT id, workspace_id, url, events, description, enabled, created_at
       FROM delivery.endpoints WHERE id = $1`,
      [id],
    );
    if (!rows[0]) throw new DomainError('not_found', `webhook endpoint ${id} not found`);
    return rows[0];
  }
}
