import { ContractSchema } from '../fields/contract-schema.decorator';
import { IdField, TextField } from '../fields/field.decorators';

/** `{id, name}`: a record referred to by id, with its name as it is now. */
export interface NamedRef {
  id: string;
  name: string;
}

/** The `{id, name}` class of one kind of record: ids `<prefix>_...`. */
function namedRef(prefix: string, what: string, schemaName: string) {
  @ContractSchema({ name: schemaName })
  class Ref implements NamedRef {
    @IdField(prefix, `Id of the ${what}.`) id!: string;
    @TextField({ description: `Name of the ${what}.` }) name!: string;
  }
  return Ref;
}

export const CategoryRef = namedRef('cat', 'category', 'CategoryRef');
export const LocationRef = namedRef('loc', 'location', 'LocationRef');
export const DepartmentRef = namedRef('dep', 'department', 'DepartmentRef');
export const PersonRef = namedRef('per', 'person', 'PersonRef');

/** An asset referred to by id, with its name and tag as they are now. */
@ContractSchema({ name: 'AssetRef', description: 'The asset concerned.' })
export class AssetRef {
  @IdField('ast', 'Id of the asset.') id!: string;
  @TextField() name!: string;
  @TextField() asset_tag!: string;
}
