import { IsArray } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { DISABLED_REASONS, type DisabledReason } from './webhook.constants';
import { EVENTS_DESCRIPTION } from './webhook.docs';

export interface WebhookEndpointView {
  id: string;
  workspace_id: string;
  url: string;
  /** `['*']` or the subscribed keys. */
  events: string[];
  description: string | null;
  enabled: boolean;
  created_at: string;
}

/** The only time the signing secret is shown. */
export interface CreatedWebhookView {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

export interface WebhookTestView {
  delivery_id: string;
  event_id: string;
}

/** An endpoint as the console shows it (never its secret). */
export interface ConsoleEndpointView {
  id: string;
  url: string;
  description: string | null;
  /** `['*']` or the subscribed keys. */
  events: string[];
  enabled: boolean;
  /** `manual`: a person disabled it; `auto`: a long run of failed deliveries did. */
  disabled_reason: DisabledReason | null;
  disabled_at: string | null;
  /** Failed deliveries since the last delivered one. */
  consecutive_failures: number;
  /** delivered / (delivered + failed) over the last 24 h of finished deliveries; null if none. */
  success_rate: number | null;
  /** Deliveries that finished (delivered or failed) in the last 24 h. */
  deliveries_24h: number;
  /** While the previous secret still signs too. */
  secret_rotation: { previous_expires_at: string } | null;
  created_at: string;
}

/** The reply of a create: the only time the secret comes without asking. */
export interface CreatedConsoleEndpointView extends ConsoleEndpointView {
  secret: string;
}

export interface SigningSecretView {
  secret: string;
  /** The previous secret while deliveries still carry its signature. */
  previous: { secret: string; expires_at: string } | null;
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

  @EnumField(DISABLED_REASONS, {
    nullable: true,
    description: '`manual`: a person disabled it; `auto`: a long run of failed deliveries did.',
  })
  disabled_reason!: DisabledReason | null;

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
