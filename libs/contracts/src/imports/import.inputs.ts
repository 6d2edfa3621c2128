import { BooleanString } from './boolean-string';
import { EnumField, TextField } from '../fields/field.decorators';
import {
  IMPORT_PLANS,
  IMPORT_RESULTS,
  IMPORT_TYPES,
  type ImportPlan,
  type ImportResult,
  type ImportType,
} from './import.constants';

/** POST /imports: the query beside the CSV body. */
export class CreateImportQuery {
  @EnumField(IMPORT_TYPES, { description: 'What the rows are.' }) type!: ImportType;
  @BooleanString({
    description:
      'true (the default): plan every row and wait for POST /imports/{id}/start; false: ' +
      'import right after planning.',
  })
  dry_run?: string;
  @TextField({ min: 1, max: 200, optional: true, description: 'A name to know it by.' })
  filename?: string;
}

/** GET /imports/{id}/rows. */
export class ImportRowListQuery {
  @EnumField(IMPORT_PLANS, { optional: true, description: 'Only rows the dry run plans so.' })
  plan?: ImportPlan;
  @EnumField(IMPORT_RESULTS, { optional: true, description: 'Only rows that ended so.' })
  result?: ImportResult;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Rows per page, 1 to 200.' })
  pageSize?: string;
}

/** GET /imports. */
export class ImportListQuery {
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Imports per page, 1 to 200.' })
  pageSize?: string;
}
