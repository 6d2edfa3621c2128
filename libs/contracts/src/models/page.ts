import { ASSET_PAGE_SIZE_MAX, type Page } from '../assets';
import { ContractSchema, type ContractSchemaOptions } from '../fields/contract-schema.decorator';
import { IntField, ListField, type ContractClass } from '../fields/field.decorators';

/** The class of `{data, page, pageSize, total}`: a list route asked for a `page`. */
export function pageOf<T extends ContractClass>(item: T, options: ContractSchemaOptions) {
  @ContractSchema(options)
  class ItemPage implements Page<InstanceType<T>> {
    @ListField(item, { description: 'The items of this page, in list order.' })
    data!: Array<InstanceType<T>>;

    @IntField({ min: 1, description: 'The page number asked for (1-based).' })
    page!: number;

    @IntField({
      min: 1,
      max: ASSET_PAGE_SIZE_MAX,
      description: `Items per page (1-${ASSET_PAGE_SIZE_MAX}, default 50).`,
    })
    pageSize!: number;

    @IntField({ min: 0, description: 'Number of items matching the query.' })
    total!: number;
  }
  return ItemPage;
}
