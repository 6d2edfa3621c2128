import { IsObject } from 'class-validator';
import type { DeliverableEvent } from '../events/event.constants';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  IntField,
  ListField,
  OpenObjectField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import {
  DELIVERY_ERROR_KINDS,
  DELIVERY_STATUSES,
  type DeliveryErrorKind,
  type DeliveryStatus,
} from './delivery.constants';

export interface DeliveryAttemptView {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: DeliveryErrorKind | null;
  response_body: string | null;
}

export interface DeliveryLogEntry {
  delivery_id: string;
  event_id: string;
  event: DeliverableEvent;
  status: DeliveryStatus;
  attempts: DeliveryAttemptView[];
}

export interface DeliverySummaryView {
  delivery_id: string;
  event_id: string;
  event: DeliverableEvent;
  endpoint_id: string;
  endpoint_url: string;
  status: DeliveryStatus;
  /** Attempts made, over every chain. */
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: DeliveryErrorKind | null;
}

export interface DeliveryAttemptLogView {
  /** Counts up over the delivery's life, across chains. */
  attempt: number;
  /** 1 for the first send, 2.. for each resend. */
  chain: number;
  started_at: string;
  duration_ms: number;
  /** What was sent, signature included (it is not a secret); {} when nothing was. */
  request_headers: Record<string, string>;
  status_code: number | null;
  /** The receiver's headers; sensitive ones (cookies, credentials, tokens) as "[hidden]". */
  response_headers: Record<string, string>;
  /** The first 4 KiB. */
  response_body: string | null;
  error: DeliveryErrorKind | null;
}

export interface DeliveryDetailView extends DeliverySummaryView {
  /** The body as sent (the envelope). */
  payload: Record<string, unknown>;
  attempt_log: DeliveryAttemptLogView[];
}

export interface DeliverySearchView {
  data: DeliverySummaryView[];
  /** Pass as `before` for the next (older) page; null on the last. */
  next_cursor: string | null;
  /** How long finished deliveries are kept (DELIVERY_RETENTION_DAYS). */
  retention_days: number;
}

export interface DeliveriesResentView {
  resent: number;
}

const HEADERS = { type: 'object', additionalProperties: { type: 'string' } };

@ContractSchema({ name: 'DeliverySummary' })
export class DeliverySummary {
  @IdField('dlv', 'Id of the delivery (the X-Custodian-Delivery header).') delivery_id!: string;
  @IdField('evt', 'Id of the event.') event_id!: string;
  @TextField({ description: 'The event key.' }) event!: string;
  @IdField('whe', 'The endpoint.') endpoint_id!: string;
  @TextField() endpoint_url!: string;
  @EnumField(DELIVERY_STATUSES) status!: DeliveryStatus;
  @IntField({ min: 0, description: 'Attempts made, over every chain.' }) attempts!: number;
  @TimestampField() created_at!: string;
  @TimestampField({ nullable: true }) last_attempt_at!: string | null;
  @IntField({ nullable: true }) last_status_code!: number | null;
  @EnumField(DELIVERY_ERROR_KINDS, { nullable: true }) last_error!: DeliveryErrorKind | null;
}

@ContractSchema({
  name: 'DeliveryAttemptLog',
  description: 'One HTTP attempt, as sent and answered.',
})
export class DeliveryAttemptLog {
  @IntField({ min: 1, description: "Counts up over the delivery's life." }) attempt!: number;
  @IntField({ min: 1, description: '1 for the first send, 2 and up for each resend.' })
  chain!: number;
  @TimestampField() started_at!: string;
  @IntField({ min: 0 }) duration_ms!: number;
  @Field(HEADERS, [IsObject()], { description: 'The request headers as sent.' })
  request_headers!: Record<string, string>;
  @IntField({ nullable: true }) status_code!: number | null;
  @Field(HEADERS, [IsObject()], { description: 'Response headers; sensitive ones as "[hidden]".' })
  response_headers!: Record<string, string>;
  @TextField({ nullable: true, description: 'The first 4 KiB of the response.' })
  response_body!: string | null;
  @EnumField(DELIVERY_ERROR_KINDS, { nullable: true }) error!: DeliveryErrorKind | null;
}

@ContractSchema({ name: 'DeliveryDetail' })
export class DeliveryDetail extends DeliverySummary {
  @OpenObjectField({ description: 'The body as sent (the event envelope).' })
  payload!: Record<string, unknown>;
  @ListField(DeliveryAttemptLog) attempt_log!: DeliveryAttemptLog[];
}

@ContractSchema({ name: 'DeliveryLogPage', description: 'Deliveries, newest first.' })
export class DeliveryLogPage {
  @ListField(DeliverySummary) data!: DeliverySummary[];
  @TextField({
    nullable: true,
    description: 'Pass as `before` for older deliveries; null at the end.',
  })
  next_cursor!: string | null;
  @IntField({ min: 1, description: 'How many days finished deliveries are kept.' })
  retention_days!: number;
}

@ContractSchema({ name: 'DeliveriesResent' })
export class DeliveriesResent {
  @IntField({ min: 0, description: 'Failed deliveries made pending again (1000 at most).' })
  resent!: number;
}
