import { ContractSchema } from '../fields/contract-schema.decorator';
import { ListField, OpenObjectField, TextField } from '../fields/field.decorators';

/** The event catalog as the console shows it (GET /console/api/events). */

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
