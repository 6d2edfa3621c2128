import { ContractSchema } from '../fields/contract-schema.decorator';
import { Field, ListField, OpenObjectField, TextField } from '../fields/field.decorators';

/** The event catalog as the console shows it (GET /console/api/events). */

@ContractSchema({ name: 'CatalogEvent' })
export class CatalogEvent {
  @TextField() key!: string;
  @TextField() description!: string;
  @OpenObjectField({ description: "An example of the event's `data`." }) example!: Record<
    string,
    unknown
  >;
  // A console-only notice (endpoint.disabled) is listed so people know it exists, but an
  // endpoint cannot subscribe to it: the picker leaves it out, the API refuses it.
  @Field(
    {
      type: 'boolean',
      description:
        'Whether an endpoint can subscribe to it; false for console-only notices (e-mail and banner).',
    },
    [],
  )
  subscribable!: boolean;
}

@ContractSchema({
  name: 'CatalogModule',
  description: 'Event keys of one module (the part before the dot).',
})
export class CatalogModule {
  @TextField() module!: string;
  @ListField(CatalogEvent) events!: CatalogEvent[];
}
