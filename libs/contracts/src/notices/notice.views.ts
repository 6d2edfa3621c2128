import { ContractSchema } from '../fields/contract-schema.decorator';
import { Field, TimestampField } from '../fields/field.decorators';
import { IsArray } from 'class-validator';

/** GET /settings/notices: when the workspace is told of dates coming up. */
@ContractSchema({
  name: 'NoticeSettings',
  examples: [{ expiry_days: [30, 7], updated_at: null }],
})
export class NoticeSettings {
  @Field({ type: 'array', items: { type: 'integer' } }, [IsArray()], {
    description:
      'Days before an expiry date that an `*.expiring` event fires, largest first; 30 and 7 ' +
      'until changed.',
  })
  expiry_days!: number[];
  @TimestampField({ nullable: true, description: 'Last changed; null: the defaults.' })
  updated_at!: string | null;
}
