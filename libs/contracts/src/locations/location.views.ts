import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  IdField,
  IntField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { pageOf } from '../shared/paging';
import { LocationRef, type NamedRef } from '../shared/refs';

export const LOCATION_EXAMPLE = {
  id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0x',
  name: 'Room 101',
  parent: { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0y', name: 'Floor 1' },
  path: [
    { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0z', name: 'Berlin office' },
    { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0y', name: 'Floor 1' },
  ],
  depth: 2,
  address: null,
  notes: 'Key at reception.',
  children_count: 0,
  asset_count: 14,
  people_count: 3,
  created_at: '2026-01-10T08:00:00.000Z',
  updated_at: '2026-03-02T10:30:00.000Z',
} as const satisfies Location;

/**
 * A place: a building, a floor, a room. `GET /locations` lists them in tree order (each after
 * its parent, siblings by name) with their `depth`, so a client draws the tree as it reads.
 */
@ContractSchema({ name: 'Location', examples: [LOCATION_EXAMPLE] })
export class Location {
  @IdField('loc', 'Id of the location.') id!: string;
  @TextField({ description: 'Its name, unique among its siblings.' }) name!: string;
  @NestedField(LocationRef, { nullable: true, description: 'The place it is in; null: top.' })
  parent!: NamedRef | null;
  @ListField(LocationRef, { description: 'The places above it, from the top down.' })
  path!: NamedRef[];
  @IntField({ min: 0, description: '0 at the top level.' }) depth!: number;
  @TextField({ nullable: true }) address!: string | null;
  @TextField({ nullable: true }) notes!: string | null;
  @IntField({ min: 0, description: 'Places directly in it.' }) children_count!: number;
  @IntField({
    min: 0,
    description:
      'Assets whose location is this place itself; `GET /assets?location_id=...&include_children=true` ' +
      'lists those under it too.',
  })
  asset_count!: number;
  @IntField({ min: 0, description: 'People whose location is this place.' }) people_count!: number;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const LocationPage = pageOf(Location, { name: 'LocationPage' });
