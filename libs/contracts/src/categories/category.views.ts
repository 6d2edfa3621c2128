import { ContractSchema } from '../fields/contract-schema.decorator';
import { IdField, IntField, TextField, TimestampField } from '../fields/field.decorators';
import { pageOf } from '../shared/paging';

export const CATEGORY_EXAMPLE = {
  id: 'cat_01jd8x1a2b3c4d5e6f7g8h9j0k',
  name: 'Laptops',
  asset_count: 120,
  created_at: '2026-01-10T08:00:00.000Z',
  updated_at: '2026-01-10T08:00:00.000Z',
} as const satisfies Category;

/** A category of assets; `GET /categories` lists them by name. */
@ContractSchema({ name: 'Category', examples: [CATEGORY_EXAMPLE] })
export class Category {
  @IdField('cat', 'Id of the category.') id!: string;
  @TextField({ description: 'Its name, unique in the workspace (any case).' }) name!: string;
  @IntField({ min: 0, description: 'Assets of this category (not those in the bin).' })
  asset_count!: number;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const CategoryPage = pageOf(Category, { name: 'CategoryPage' });
