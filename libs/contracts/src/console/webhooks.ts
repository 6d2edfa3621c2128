import { IsArray, IsBoolean, IsObject } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  IntField,
  ListField,
  NestedField,
  OpenObjectField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';

/**
 * The console's webhook and delivery-log bodies and answers, as the console's OpenAPI document
 * describes them. The gateway checks a body against these classes, then the worker checks the
 * message it forwards (WorkerConsoleRpc) again: both say the same, so a client learns what is
 * wrong before a message is sent.
 */

const STATUSES = ['pending', 'delivered', 'failed'] as const;
const ERROR_KINDS = [
  'timeout',
  'connection_refused',
  'dns',
  'network',
  'forbidden_address',
  'secret_unreadable',
] as const;
const HEADERS = { type: 'object', additionalProperties: { type: 'string' } };
const EVENTS_DESCRIPTION = 'Event keys the endpoint receives, or `["*"]` alone for every event.';

const eventList = (options: { optional?: boolean } = {}) =>
  Field(
    {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 100 },
      minItems: 1,
      maxItems: 100,
    },
    [IsArray({ message: 'events must be a list of event keys, or ["*"]' })],
    { ...options, description: EVENTS_DESCRIPTION },
  );

export class CreateEndpointBody {
  @TextField({
    min: 1,
    max: 2048,
    description: 'Where deliveries are POSTed (https in production).',
  })
  url!: string;

  @eventList() events!: string[];

  @TextField({ optional: true, nullable: true, max: 500, description: 'What the endpoint is for.' })
  description?: string | null;
}

export class UpdateEndpointBody {
  @TextField({ optional: true, min: 1, max: 2048 }) url?: string;
  @eventList({ optional: true }) events?: string[];

  @TextField({ optional: true, nullable: true, max: 500, description: 'null clears it.' })
  description?: string | null;

  @Field({ type: 'boolean' }, [IsBoolean({ message: 'enabled must be true or false' })], {
    optional: true,
    description: 'false disables the endpoint; true enables it, also after an automatic disable.',
  })
  enabled?: boolean;
}

export class RotateSecretBody {
  @IntField({
    optional: true,
    min: 0,
    max: 168,
    description:
      "Hours during which deliveries also carry the old secret's signature (default 24).",
  })
  overlap_hours?: number;
}

export class ResendDeliveriesBody {
  @TextField({ optional: true, min: 1, max: 64, description: "Only this endpoint's." })
  endpoint?: string;

  @TextField({ optional: true, min: 1, max: 100, description: "Only this event key's." })
  event?: string;

  @TextField({ optional: true, max: 40, description: 'Created at or after (ISO 8601 with zone).' })
  from?: string;

  @TextField({ optional: true, max: 40, description: 'Created before (ISO 8601 with zone).' })
  to?: string;
}

@ContractSchema({ name: 'SecretRotation' })
export class SecretRotation {
  @TimestampField({ description: 'Until when the previous secret also signs.' })
  previous_expires_at!: string;
}

@ContractSchema({ name: 'ConsoleEndpoint', description: 'A webhook endpoint, without its secret.' })
export class ConsoleEndpoint {
  @IdField('whe', 'Id of the endpoint.') id!: string;
  @TextField() url!: string;
  @TextField({ nullable: true }) description!: string | null;
  @Field({ type: 'array', items: { type: 'string' } }, [IsArray()], {
    description: EVENTS_DESCRIPTION,
  })
  events!: string[];
  @Field({ type: 'boolean' }, []) enabled!: boolean;

  @EnumField(['manual', 'auto'], {
    nullable: true,
    description: '`manual`: a person disabled it; `auto`: a long run of failed deliveries did.',
  })
  disabled_reason!: 'manual' | 'auto' | null;

  @TimestampField({ nullable: true }) disabled_at!: string | null;

  @IntField({ min: 0, description: 'Failed deliveries since the last delivered one.' })
  consecutive_failures!: number;

  @Field({ type: 'number', minimum: 0, maximum: 1 }, [], {
    nullable: true,
    description: 'Delivered share of the deliveries finished in the last 24 hours; null if none.',
  })
  success_rate!: number | null;

  @IntField({ min: 0, description: 'Deliveries finished in the last 24 hours.' })
  deliveries_24h!: number;

  @NestedField(SecretRotation, { nullable: true }) secret_rotation!: SecretRotation | null;
  @TimestampField() created_at!: string;
}

@ContractSchema({ name: 'CreatedConsoleEndpoint', description: 'A new endpoint with its secret.' })
export class CreatedConsoleEndpoint extends ConsoleEndpoint {
  @TextField({ description: 'The signing secret (`whsec_...`).' }) secret!: string;
}

@ContractSchema({ name: 'PreviousSecret' })
export class PreviousSecret {
  @TextField() secret!: string;
  @TimestampField() expires_at!: string;
}

@ContractSchema({
  name: 'SigningSecret',
  description: 'The signing secret, and the previous one while it overlaps.',
})
export class SigningSecret {
  @TextField() secret!: string;
  @NestedField(PreviousSecret, { nullable: true }) previous!: PreviousSecret | null;
}

@ContractSchema({ name: 'TestPing', description: 'The ping sent through the live delivery path.' })
export class TestPing {
  @IdField('dlv', 'The delivery, to follow in the log.') delivery_id!: string;
  @IdField('evt', 'The ping event.') event_id!: string;
}

@ContractSchema({ name: 'DeliverySummary' })
export class DeliverySummary {
  @IdField('dlv', 'Id of the delivery (the X-Custodian-Delivery header).') delivery_id!: string;
  @IdField('evt', 'Id of the event.') event_id!: string;
  @TextField({ description: 'The event key.' }) event!: string;
  @IdField('whe', 'The endpoint.') endpoint_id!: string;
  @TextField() endpoint_url!: string;
  @EnumField(STATUSES) status!: (typeof STATUSES)[number];
  @IntField({ min: 0, description: 'Attempts made, over every chain.' }) attempts!: number;
  @TimestampField() created_at!: string;
  @TimestampField({ nullable: true }) last_attempt_at!: string | null;
  @IntField({ nullable: true }) last_status_code!: number | null;
  @EnumField(ERROR_KINDS, { nullable: true }) last_error!: (typeof ERROR_KINDS)[number] | null;
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
  @EnumField(ERROR_KINDS, { nullable: true }) error!: (typeof ERROR_KINDS)[number] | null;
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

@ContractSchema({ name: 'CatalogEvent' })
export class CatalogEvent {
  @TextField() key!: string;
  @TextField() description!: string;
  @OpenObjectField({ description: "An example of the event's `data`." }) example!: Record<
    string,
    unknown
  >;
}

@ContractSchema({
  name: 'CatalogModule',
  description: 'Event keys of one module (the part before the dot).',
})
export class CatalogModule {
  @TextField() module!: string;
  @ListField(CatalogEvent) events!: CatalogEvent[];
}
