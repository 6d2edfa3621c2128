import {
  BULK_RESEND_MAX,
  DELIVERY_SEARCH_LIMIT_DEFAULT,
  DomainError,
  type DeliveriesResendMessage,
  type DeliveriesResentView,
  type DeliveryAttemptLogView,
  type DeliveryDetailView,
  type DeliverySearchMessage,
  type DeliverySearchView,
  type DeliverySummaryView,
} from '@custodian/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { DeliveryScheduler } from '../delivery/delivery-scheduler';
import { EndpointsService } from '../webhooks/endpoints.service';
import { decodeCursor, encodeCursor } from './delivery-cursor';
import { deliveryWhere, type DeliveryCriteria } from './delivery-filters';

type SummaryRow = Omit<DeliverySummaryView, 'created_at' | 'last_attempt_at'> & {
  created_at: Date;
  /** created_at in UTC with microseconds, for the cursor. */
  cursor_at: string;
  last_attempt_at: Date | null;
};

/** The summary columns of delivery d (its endpoint e, its last attempt `last`). */
const SUMMARY = `
  SELECT d.id AS delivery_id, d.event_id, d.event, d.endpoint_id, e.url AS endpoint_url,
    d.status, d.attempts, d.created_at,
    to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
    last.started_at AS last_attempt_at, last.status_code AS last_status_code,
    last.error AS last_error
  FROM delivery.deliveries d
  JOIN delivery.endpoints e ON e.id = d.endpoint_id
  LEFT JOIN LATERAL (
    SELECT a.started_at, a.status_code, a.error FROM delivery.delivery_attempts a
    WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1) last ON true`;

/** What a resend sets: pending again, due now, as the next chain of attempts. */
const RESEND = `
  status = 'pending', chain = d.chain + 1, attempts_before_chain = d.attempts,
  next_attempt_at = now(), lease_until = NULL, finished_at = NULL`;

/**
 * The console's delivery log of a workspace: search (filters, newest first, keyset pages),
 * one delivery with its attempts, and resends. A resend makes a finished delivery pending
 * again as a new chain of attempts under the same delivery id (its retries counted afresh,
 * its attempt numbers going on), so the receiver can deduplicate it as before.
 */
@Injectable()
export class DeliveryLogService {
  private readonly logger = new Logger('DeliveryLogService');

  constructor(
    private readonly db: DataSource,
    private readonly endpoints: EndpointsService,
    private readonly scheduler: DeliveryScheduler,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {}

  async search(input: DeliverySearchMessage): Promise<DeliverySearchView> {
    const limit = input.limit === undefined ? DELIVERY_SEARCH_LIMIT_DEFAULT : Number(input.limit);
    const criteria: DeliveryCriteria = {
      workspace: input.workspace,
      endpoint: input.endpoint,
      event: input.event,
      status: input.status,
      from: input.from,
      to: input.to,
      before: input.before === undefined ? undefined : decodeCursor(input.before),
    };
    const where = deliveryWhere(criteria);
    if (input.endpoint !== undefined)
      await this.endpoints.endpoint(input.endpoint, input.workspace);
    const rows = await this.db.query<SummaryRow[]>(
      `${SUMMARY} WHERE ${where.sql}
       ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`,
      where.parameters,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map(toSummary),
      next_cursor:
        rows.length > limit && last
          ? encodeCursor({ createdAt: last.cursor_at, id: last.delivery_id })
          : null,
      retention_days: this.config.DELIVERY_RETENTION_DAYS,
    };
  }

  async get(workspace: string, id: string): Promise<DeliveryDetailView> {
    const summary = await this.summary(workspace, id);
    const [row] = await this.db.query<Array<{ payload: Record<string, unknown> }>>(
      `SELECT payload FROM delivery.deliveries WHERE id = $1`,
      [id],
    );
    const attempts = await this.db.query<
      Array<Omit<DeliveryAttemptLogView, 'started_at'> & { started_at: Date }>
    >(
      `SELECT attempt, chain, started_at, duration_ms,
         coalesce(request_headers, '{}'::jsonb) AS request_headers, status_code,
         coalesce(response_headers, '{}'::jsonb) AS response_headers, response_body, error
       FROM delivery.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [id],
    );
    return {
      ...summary,
      payload: row?.payload ?? {},
      attempt_log: attempts.map((a) => ({ ...a, started_at: a.started_at.toISOString() })),
    };
  }

  /** A finished delivery (delivered or failed) sent again: a new chain of attempts. */
  async resend(workspace: string, id: string): Promise<DeliverySummaryView> {
    const [, count] = await this.db.query<[unknown[], number]>(
      `UPDATE delivery.deliveries d SET ${RESEND}
       WHERE d.id = $1 AND d.workspace_id = $2 AND d.status <> 'pending'`,
      [id, workspace],
    );
    if (count === 0) {
      const current = await this.summary(workspace, id);
      throw new DomainError(
        'conflict',
        `delivery ${current.delivery_id} is still pending; it can be resent once it has been ` +
          'delivered or has failed',
      );
    }
    void this.scheduler.tick();
    return this.summary(workspace, id);
  }

  /**
   * Every failed delivery matching the filters, oldest first, BULK_RESEND_MAX at most per call
   * (call again for more: those resent are pending, no longer failed).
   */
  async resendFailed(input: DeliveriesResendMessage): Promise<DeliveriesResentView> {
    const where = deliveryWhere({
      workspace: input.workspace,
      endpoint: input.endpoint,
      event: input.event,
      status: 'failed',
      from: input.from,
      to: input.to,
    });
    if (input.endpoint !== undefined)
      await this.endpoints.endpoint(input.endpoint, input.workspace);
    const [, count] = await this.db.query<[unknown[], number]>(
      `WITH chosen AS (
         SELECT d.id FROM delivery.deliveries d WHERE ${where.sql}
         ORDER BY d.created_at, d.id LIMIT ${BULK_RESEND_MAX}
         FOR NO KEY UPDATE SKIP LOCKED)
       UPDATE delivery.deliveries d SET ${RESEND}
       FROM chosen WHERE d.id = chosen.id AND d.status = 'failed'`,
      where.parameters,
    );
    if (count > 0) {
      this.logger.log(`${count} failed deliveries of workspace ${input.workspace} resent`);
      void this.scheduler.tick();
    }
    return { resent: count };
  }

  private async summary(workspace: string, id: string): Promise<DeliverySummaryView> {
    const [row] = await this.db.query<SummaryRow[]>(
      `${SUMMARY} WHERE d.id = $1 AND d.workspace_id = $2`,
      [id, workspace],
    );
    if (!row) throw new DomainError('not_found', `delivery ${id} not found`);
    return toSummary(row);
  }
}

function toSummary({ cursor_at: _cursor, ...row }: SummaryRow): DeliverySummaryView {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  };
}
