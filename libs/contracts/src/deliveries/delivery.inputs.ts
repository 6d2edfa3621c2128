import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { Field, TextField } from '../fields/field.decorators';
import { TextLength } from '../fields/text-length';
import { IsPageLimit } from '../shared/paging';
import { DELIVERY_STATUSES, type DeliveryStatus } from './delivery.constants';

/** Admin queue: one endpoint's latest deliveries (WorkerAdminRpc.deliveries). */
export class DeliveriesInput {
  @IsString() @TextLength(1, 64) endpoint!: string;
  /** How many deliveries, newest first: 1 to 100 (default 20), as a number or a string of digits. */
  @IsOptional() @IsPageLimit() limit?: number | string;
}

/** A date and time with a zone (`2026-01-01T00:00:00Z`, `...+02:00`): no guessing of zones. */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const zonedMessage = (name: string) =>
  `${name} must be an ISO 8601 date and time with a zone, e.g. 2026-01-01T00:00:00Z`;

/**
 * `from` and `to`: a date and time with its zone. The document also says at most 40 characters,
 * which the pattern implies (it matches 32 at most).
 */
const zonedTime = (description: string) => (target: object, key: string | symbol) =>
  Field(
    { type: 'string', maxLength: 40 },
    [
      IsString(),
      Matches(ZONED_TIME, { message: zonedMessage(String(key)) }),
      IsISO8601({ strict: true }, { message: `${String(key)} must be a valid date and time` }),
    ],
    { optional: true, description },
  )(target, key);

/**
 * The filters of the delivery log and of a bulk resend (query strings, as sent); the body of
 * POST /console/api/deliveries/resend (every failed delivery matching, BULK_RESEND_MAX at most).
 */
export class ResendDeliveriesBody {
  @TextField({ optional: true, min: 1, max: 64, description: "Only this endpoint's." })
  endpoint?: string;

  /** An event key or `ping` (checked by the worker, which names an unknown key). */
  @TextField({ optional: true, min: 1, max: 100, description: "Only this event key's." })
  event?: string;

  @zonedTime('Created at or after (ISO 8601 with zone).') from?: string;
  @zonedTime('Created before (ISO 8601 with zone).') to?: string;
}

/** The worker's name for the filters: the same class. */
export { ResendDeliveriesBody as DeliveryFilters };

/** GET /console/api/deliveries: newest first; `before` is the previous page's next_cursor. */
export class DeliverySearchQuery extends ResendDeliveriesBody {
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @IsOptional() @IsString() @TextLength(1, 200) before?: string;

  /** 1 to 100 (default 50), as a number or a string of digits. */
  @IsOptional() @IsPageLimit() limit?: number | string;
}
