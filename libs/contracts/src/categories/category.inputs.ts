import { TextField } from '../fields/field.decorators';

const NAME = {
  min: 1,
  max: 200,
  notBlank: true,
  description: 'Unique in the workspace, any case.',
};

/** Body of POST /categories. */
export class CreateCategoryInput {
  @TextField(NAME) name!: string;
}

/** Body of PATCH /categories/{id}: a rename; every asset of it shows the new name at once. */
export class UpdateCategoryInput {
  @TextField({ ...NAME, optional: true }) name?: string;
}

/** Query of GET /categories. */
export class CategoryListQuery {
  @TextField({ max: 200, optional: true, description: 'Categories whose name contains this.' })
  search?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 500.' })
  pageSize?: string;
}
