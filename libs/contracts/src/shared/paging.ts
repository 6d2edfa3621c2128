import { ValidateBy } from 'class-validator';
import { ContractSchema, type ContractSchemaOptions } from '../fields/contract-schema.decorator';
import { IntField, ListField, type ContractClass } from '../fields/field.decorators';

export const ASSET_PAGE_SIZE_DEFAULT = 50;
export const ASSET_PAGE_SIZE_MAX = 200;
export const ASSET_UNPAGED_MAX = 10_000;
/**
 * The unpaged lists (assets, people) as JSON: at most 15 MiB, so the RPC reply that carries
 * one stays under 16 MiB (RabbitMQ 4's default max_message_size) whatever the rows hold.
 */
export const UNPAGED_MAX_BYTES = 15 * 1024 * 1024;

/** Query of GET /assets, as the gateway received it (strings, unparsed). */
export type RawQuery = Record<string, string | string[] | undefined>;

/** A list's order: a column of the table, then the id in the same direction. */
export interface ListSort {
  column: string;
  descending: boolean;
}

/** `{data, page, pageSize, total}`: a list route asked for a `page` (classes: `pageOf`). */
export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
}

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
