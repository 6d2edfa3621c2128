import { TextField } from '../fields/field.decorators';

const CLEARABLE = { optional: true, nullable: true } as const;
const PARENT =
  'The place it is in (`GET /locations`), or null for the top level. Not itself nor a place ' +
  'under it; the tree is at most 8 levels deep.';

/** Body of POST /locations. */
export class CreateLocationInput {
  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    description: 'Unique among the places of the same parent, any case.',
  })
  name!: string;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: PARENT }) parent_id?: string | null;
  @TextField({ max: 500, ...CLEARABLE }) address?: string | null;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
}

/** Body of PATCH /locations/{id}: rename, move (`parent_id`), or change the address or notes. */
export class UpdateLocationInput {
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) name?: string;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: PARENT }) parent_id?: string | null;
  @TextField({ max: 500, ...CLEARABLE }) address?: string | null;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
}

/** Query of GET /locations. */
export class LocationListQuery {
  @TextField({
    min: 1,
    max: 64,
    optional: true,
    description: 'Only the places directly in this one; `top` for the top level.',
  })
  parent_id?: string;
  @TextField({ max: 200, optional: true, description: 'Places whose name contains this.' })
  search?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 500.' })
  pageSize?: string;
}
