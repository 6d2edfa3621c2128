import {
  DELIVERY_SEARCH_LIMIT_DEFAULT,
  DomainError,
  type DeliveriesResendMessage,
  type DeliveriesResentView,
  type DeliveryDetailView,
  type DeliverySearchMessage,
  type DeliverySearchView,
  type DeliverySummaryView,
} from '@custodian/contracts';
import { AppliedWrites } from '@custodian/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { DeliveryScheduler } from '../delivery/delivery-scheduler';
import {
  deliveryAttempts,
  deliveryPayload,
  deliverySummary,
  resendDelivery,
  resendFailedDeliveries,
  searchDeliveries,
  type DeliverySummaryRow,
} from '../delivery/delivery.store';
import { EndpointsService } from '../webhooks/endpoints.service';
import { decodeCursor, encodeCursor } from './delivery-cursor';
import { deliveryWhere, type DeliveryCriteria } from './delivery-filters';

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
    private readonly writes: AppliedWrites,
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
    const rows = await searchDeliveries(this.db, where, limit);
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
    const row = await deliveryPayload(this.db, id);
    const attempts = await deliveryAttempts(this.db, id);
    return {
      ...summary,
      payload: row?.payload ?? {},
      attempt_log: attempts.map((a) => ({ ...a, started_at: a.started_at.toISOString() })),
    };
  }

  /** A finished delivery (delivered or failed) sent again: a new chain of attempts. */
  async resend(workspace: string, id: string): Promise<DeliverySummaryView> {
    // Applied once per request: a console retry with its Idempotency-Key (or a redelivery)
    // is answered with the delivery as it is, not refused as still pending by its own resend.
    const count = await this.writes.run(workspace, (tx) => resendDelivery(tx, workspace, id));
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
    // Applied once per request: a repeat answers the first count and resends nothing more.
    const count = await this.writes.run(input.workspace, (tx) => resendFailedDeliveries(tx, where));
    if (count > 0) {
      this.logger.log(`${count} failed deliveries of workspace ${input.workspace} resent`);
      void this.scheduler.tick();
    }
    return { resent: count };
  }

  private async summary(workspace: string, id: string): Promise<DeliverySummaryView> {
    const row = await deliverySummary(this.db, workspace, id);
    if (!row) throw new DomainError('not_found', `delivery ${id} not found`);
    return toSummary(row);
  }
}

function toSummary({ cursor_at: _cursor, ...row }: DeliverySummaryRow): DeliverySummaryView {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  };
}
