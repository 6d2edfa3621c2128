import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
} from 'class-validator';
import { Field, TextField } from '../fields/field.decorators';
import { TextLength } from '../fields/text-length';
import { MAX_SECRET_OVERLAP_HOURS } from './webhook.constants';
import { EVENTS_DESCRIPTION } from './webhook.docs';

/**
 * The console's webhook bodies, as the console's OpenAPI document describes them. The gateway
 * checks a body against these classes, then the worker checks the message it forwards
 * (WorkerConsoleRpc, whose classes extend these) again: both say the same, so a client learns
 * what is wrong before a message is sent.
 */

/** `webhook create`: events is `*` or a comma list of event keys (checked by the worker). */
export class CreateWebhookInput {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 2048) url!: string;
  @IsString() @TextLength(1, 4000) events!: string;
  @IsOptional() @IsString() @TextLength(undefined, 500) description?: string;
}

export class WebhookListInput {
  @IsString() @TextLength(1, 64) workspace!: string;
}

export class WebhookTestInput {
  @IsString() @TextLength(1, 64) id!: string;
}

export class WebhookDeleteInput {
  @IsString() @TextLength(1, 64) id!: string;
}

const eventList = (options: { optional?: boolean } = {}) =>
  Field(
    {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 100 },
      minItems: 1,
      maxItems: 100,
    },
    [
      IsArray({ message: 'events must be a list of event keys, or ["*"]' }),
      ArrayMinSize(1, { message: 'events must name at least one event key, or "*"' }),
      ArrayMaxSize(100, { message: 'events must hold at most 100 keys' }),
      IsString({ each: true, message: 'each of events must be a string' }),
      TextLength(1, 100, { each: true, message: 'each of events must be 1 to 100 characters' }),
    ],
    { ...options, description: EVENTS_DESCRIPTION },
  );

/** POST /console/api/webhooks. events: `['*']` alone for every event, else event keys. */
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

/** PATCH /console/api/webhooks/{id}: what is left out stays; `description: null` clears it. */
export class UpdateEndpointBody {
  @TextField({ optional: true, min: 1, max: 2048 }) url?: string;
  @eventList({ optional: true }) events?: string[];

  @TextField({ optional: true, nullable: true, max: 500, description: 'null clears it.' })
  description?: string | null;

  /** false disables (`manual`); true enables, also an endpoint disabled automatically. */
  @Field({ type: 'boolean' }, [IsBoolean({ message: 'enabled must be true or false' })], {
    optional: true,
    description: 'false disables the endpoint; true enables it, also after an automatic disable.',
  })
  enabled?: boolean;
}

const OVERLAP_RANGE = `overlap_hours must be from 0 to ${MAX_SECRET_OVERLAP_HOURS}`;

export class RotateSecretBody {
  /** How long deliveries also carry the previous secret's signature (0 drops it at once). */
  @Field(
    { type: 'integer', minimum: 0, maximum: MAX_SECRET_OVERLAP_HOURS },
    [
      IsInt({ message: 'overlap_hours must be a whole number of hours' }),
      Min(0, { message: OVERLAP_RANGE }),
      Max(MAX_SECRET_OVERLAP_HOURS, { message: OVERLAP_RANGE }),
    ],
    {
      optional: true,
      description:
        "Hours during which deliveries also carry the old secret's signature (default 24).",
    },
  )
  overlap_hours?: number;
}

/** The worker's names for the same bodies (its messages extend them). */
export {
  CreateEndpointBody as ConsoleEndpointCreateBody,
  UpdateEndpointBody as ConsoleEndpointUpdateBody,
  RotateSecretBody as ConsoleSecretRotateBody,
};

/** The signed-in member a console change is made by, for the activity feed. */
export class ConsoleActorRef {
  @IsString() @TextLength(1, 64) id!: string;
  @IsString() @TextLength(1, 320) email!: string;
}
