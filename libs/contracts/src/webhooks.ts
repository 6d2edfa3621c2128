import { IsOptional, IsString, ValidateBy } from 'class-validator';
import { TextLength } from './fields/text-length';
import type { DeliverableEvent } from './events';

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

/** A page size of 1 to 100, as a number or a string of digits (a query string as sent). */
export function IsPageLimit(): PropertyDecorator {
  return ValidateBy({
    name: 'isPageLimit',
    validator: {
      validate: (value: unknown) => {
        const n =
          typeof value === 'number'
            ? value
            : typeof value === 'string' && /^\d{1,3}$/.test(value)
              ? Number(value)
              : NaN;
        return Number.isInteger(n) && n >= 1 && n <= 100;
      },
      defaultMessage: () => 'limit must be a whole number from 1 to 100',
    },
  });
}

export class DeliveriesInput {
  @IsString() @TextLength(1, 64) endpoint!: string;
  /** How many deliveries, newest first: 1 to 100 (default 20), as a number or a string of digits. */
  @IsOptional() @IsPageLimit() limit?: number | string;
}

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

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * Error kinds of an attempt that got no HTTP status. `forbidden_address`: the target resolved
 * to an address production webhooks may not reach (private, loopback, ...); final, not retried.
 * `secret_unreadable`: the endpoint's stored signing secret did not decrypt with the worker's
 * keys (WEBHOOK_SECRET_KEYS), so nothing was sent; retried.
 */
export type DeliveryErrorKind =
  'timeout' | 'connection_refused' | 'dns' | 'network' | 'forbidden_address' | 'secret_unreadable';

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
