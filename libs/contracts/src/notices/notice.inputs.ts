import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, Max, Min } from 'class-validator';
import { Field } from '../fields/field.decorators';
import { EXPIRY_NOTICE_DAYS_MAX, EXPIRY_NOTICE_THRESHOLDS_MAX } from './notice.constants';

/** Body of PATCH /settings/notices: only the fields sent change. */
export class UpdateNoticeSettingsInput {
  @Field(
    {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: EXPIRY_NOTICE_DAYS_MAX },
      maxItems: EXPIRY_NOTICE_THRESHOLDS_MAX,
      uniqueItems: true,
    },
    [
      IsArray({ message: 'expiry_days must be a list of whole numbers of days' }),
      ArrayMaxSize(EXPIRY_NOTICE_THRESHOLDS_MAX, {
        message: `expiry_days must have at most ${EXPIRY_NOTICE_THRESHOLDS_MAX} thresholds`,
      }),
      ArrayUnique({ message: 'expiry_days must name each threshold once' }),
      IsInt({ each: true, message: 'each of expiry_days must be a whole number of days' }),
      Min(1, { each: true, message: 'each of expiry_days must be at least 1' }),
      Max(EXPIRY_NOTICE_DAYS_MAX, {
        each: true,
        message: `each of expiry_days must be at most ${EXPIRY_NOTICE_DAYS_MAX}`,
      }),
    ],
    {
      optional: true,
      description:
        'Days before an expiry date that `license.expiring` fires, once per threshold (an ' +
        'empty list: only `license.expired`, on the day). Applies to dates set from then on.',
    },
  )
  expiry_days?: number[];
}
