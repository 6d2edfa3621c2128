import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import type { DeliverableEvent } from './events';
import { TextLength } from './fields/text-length';
import { IsPageLimit, type DeliveryErrorKind, type DeliveryStatus } from './webhooks';

/**
 * The console's webhook and delivery-log messages (WorkerConsoleRpc). The gateway sets
 * `workspace` to the signed-in member's workspace: every lookup is scoped to it, so an id of
 * another workspace is `not_found`, like an unknown one. The body classes hold what the client
 * sends; the messages add the workspace (and the id of the route).
 */

const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** A date and time with a zone (`2026-01-01T00:00:00Z`, `...+02:00`): no guessing of zones. */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const zonedMessage = (name: string) =>
  `${name} must be an ISO 8601 date and time with a zone, e.g. 2026-01-01T00:00:00Z`;

/** The most overlap a rotation may give the previous secret: a week. */
export const MAX_SECRET_OVERLAP_HOURS = 168;
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;
/** The most deliveries one bulk resend makes pending again. */
export const BULK_RESEND_MAX = 1000;
export const DELIVERY_SEARCH_LIMIT_DEFAULT = 50;

export class ConsoleWorkspaceMessage {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** The signed-in member a console change is made by, for the activity feed. */
export class ConsoleActorRef {
  @IsString() @TextLength(1, 64) id!: string;
  @IsString() @TextLength(1, 320) email!: string;
}

/** The member field of the console's endpoint writes (optional: the CLI's have none). */
function ActorField(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsObject()(target, key);
    ValidateNested()(target, key);
    Type(() => ConsoleActorRef)(target, key);
  };
}

/** One endpoint or delivery of the workspace, by id. */
export class ConsoleRecordMessage extends ConsoleWorkspaceMessage {
  @IsString() @TextLength(1, 64) id!: string;
}

/** POST /console/api/webhooks. events: `['*']` alone for every event, else event keys. */
export class ConsoleEndpointCreateBody {
  @IsString() @TextLength(1, 2048) url!: string;

  @IsArray({ message: 'events must be a list of event keys, or ["*"]' })
  @ArrayMinSize(1, { message: 'events must name at least one event key, or "*"' })
  @ArrayMaxSize(100, { message: 'events must hold at most 100 keys' })
  @IsString({ each: true, message: 'each of events must be a string' })
  @TextLength(1, 100, { each: true, message: 'each of events must be 1 to 100 characters' })
  events!: string[];

  @IsOptional() @IsString() @TextLength(undefined, 500) description?: string | null;
}

export class ConsoleEndpointCreateMessage extends ConsoleEndpointCreateBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @ActorField() actor?: ConsoleActorRef;
}

/** PATCH /console/api/webhooks/{id}: what is left out stays; `description: null` clears it. */
export class ConsoleEndpointUpdateBody {
  @ValidateIf((o: ConsoleEndpointUpdateBody) => o.url !== undefined)
  @IsString()
  @TextLength(1, 2048)
  url?: string;

  @ValidateIf((o: ConsoleEndpointUpdateBody) => o.events !== undefined)
  @IsArray({ message: 'events must be a list of event keys, or ["*"]' })
  @ArrayMinSize(1, { message: 'events must name at least one event key, or "*"' })
  @ArrayMaxSize(100, { message: 'events must hold at most 100 keys' })
  @IsString({ each: true, message: 'each of events must be a string' })
  @TextLength(1, 100, { each: true, message: 'each of events must be 1 to 100 characters' })
  events?: string[];

  @IsOptional() @IsString() @TextLength(undefined, 500) description?: string | null;

  /** false disables (`manual`); true enables, also an endpoint disabled automatically. */
  @ValidateIf((o: ConsoleEndpointUpdateBody) => o.enabled !== undefined)
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

export class ConsoleEndpointUpdateMessage extends ConsoleEndpointUpdateBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
  @ActorField() actor?: ConsoleActorRef;
}

export class ConsoleSecretRotateBody {
  /** How long deliveries also carry the previous secret's signature (0 drops it at once). */
  @ValidateIf((o: ConsoleSecretRotateBody) => o.overlap_hours !== undefined)
  @IsInt({ message: 'overlap_hours must be a whole number of hours' })
  @Min(0, { message: `overlap_hours must be from 0 to ${MAX_SECRET_OVERLAP_HOURS}` })
  @Max(MAX_SECRET_OVERLAP_HOURS, {
    message: `overlap_hours must be from 0 to ${MAX_SECRET_OVERLAP_HOURS}`,
  })
  overlap_hours?: number;
}

export class ConsoleSecretRotateMessage extends ConsoleSecretRotateBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
  @ActorField() actor?: ConsoleActorRef;
}

/** The filters of the delivery log and of a bulk resend (query strings, as sent). */
export class DeliveryFilters {
  @IsOptional() @IsString() @TextLength(1, 64) endpoint?: string;

  /** An event key or `ping` (checked by the worker, which names an unknown key). */
  @IsOptional() @IsString() @TextLength(1, 100) event?: string;

  @IsOptional()
  @IsString()
  @Matches(ZONED_TIME, { message: zonedMessage('from') })
  @IsISO8601({ strict: true }, { message: 'from must be a valid date and time' })
  from?: string;

  @IsOptional()
  @IsString()
  @Matches(ZONED_TIME, { message: zonedMessage('to') })
  @IsISO8601({ strict: true }, { message: 'to must be a valid date and time' })
  to?: string;
}

/** GET /console/api/deliveries: newest first; `before` is the previous page's next_cursor. */
export class DeliverySearchQuery extends DeliveryFilters {
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @IsOptional() @IsString() @TextLength(1, 200) before?: string;

  /** 1 to 100 (default 50), as a number or a string of digits. */
  @IsOptional() @IsPageLimit() limit?: number | string;
}

export class DeliverySearchMessage extends DeliverySearchQuery {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** POST /console/api/deliveries/resend: every failed delivery matching, BULK_RESEND_MAX at most. */
export class DeliveriesResendMessage extends DeliveryFilters {
  @IsString() @TextLength(1, 64) workspace!: string;
}

export type DisabledReason = 'manual' | 'auto';

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
