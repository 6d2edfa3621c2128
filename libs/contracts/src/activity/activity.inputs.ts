import { EnumField, IdField, IntField, TextField } from '../fields/field.decorators';
import {
  ACTIVITY_PAGE_MAX,
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_SOURCES,
  type ActivityRecordType,
  type ActivitySource,
} from './activity.constants';

/** The filters of a feed page, parsed and checked (the console's query string, typed). */
export class ActivityFilter {
  @EnumField(ACTIVITY_RECORD_TYPES, { optional: true }) record_type?: ActivityRecordType;
  @TextField({ optional: true, max: 64, description: 'Entries of this record, or related to it.' })
  record_id?: string;
  @EnumField(ACTIVITY_SOURCES, { optional: true }) source?: ActivitySource;
  @TextField({ optional: true, max: 64, description: 'Entries made by this member or key.' })
  actor_id?: string;
  @TextField({ optional: true, max: 40, description: 'Entries with this action.' })
  action?: string;
  @IdField('act', 'Entries older than this one.', { optional: true }) before?: string;
  @IntField({ min: 1, max: ACTIVITY_PAGE_MAX }) limit!: number;
}
