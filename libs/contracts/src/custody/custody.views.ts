import { ContractSchema } from '../fields/contract-schema.decorator';
import { NestedField, TimestampField } from '../fields/field.decorators';
import { PersonRef, type NamedRef } from '../shared/refs';

/** Who holds an asset and since when. */
@ContractSchema({ name: 'Custody' })
export class Custody {
  @NestedField(PersonRef) person!: NamedRef;

  @TimestampField({ description: 'When the asset was checked out to this person.' })
  since!: string;

  @TimestampField({
    nullable: true,
    description:
      'When it is due back, or null for no due date. Past it, `assignment.overdue` fires once.',
  })
  due_at!: string | null;
}

export interface OverdueSweepView {
  /** Notices the run fired (assignment.overdue is the only kind so far). */
  fired: number;
}
