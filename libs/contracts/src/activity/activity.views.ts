import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  IdField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { CONSOLE_KEY_PREFIX, type CallerContext } from '../shared/caller-context';
import {
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_SOURCES,
  ACTOR_TYPES,
  type ActivityRecordType,
  type ActivitySource,
  type ActorType,
} from './activity.constants';

@ContractSchema({
  name: 'ActivityChange',
  description: 'One field of a record as it was and as it became, as text (null: empty).',
})
export class ActivityChange {
  @TextField({
    description: 'The field, as the API names it (custom fields: `custom_fields.<key>`).',
  })
  field!: string;
  @TextField({ nullable: true, description: 'The value before, or null.' }) from!: string | null;
  @TextField({ nullable: true, description: 'The value after, or null.' }) to!: string | null;
}

@ContractSchema({ name: 'ActivityActor', description: 'Who made a change.' })
export class ActivityActor {
  @EnumField(ACTOR_TYPES) type!: ActorType;
  @TextField({
    nullable: true,
    description: "The member's or the key's id; null for the system.",
  })
  id!: string | null;
  @TextField({
    nullable: true,
    description: "The member's e-mail or the key's name at the time; null when unknown.",
  })
  name!: string | null;
}

@ContractSchema({
  name: 'ActivityEntry',
  description:
    'One change to a record of the workspace, written in the transaction of the change itself.',
})
export class ActivityEntry {
  @IdField('act', 'Id of the entry; later entries have greater ids.') id!: string;
  @TimestampField({ description: 'When the change was made.' }) at!: string;
  @EnumField(ACTIVITY_SOURCES) source!: ActivitySource;
  @NestedField(ActivityActor) actor!: ActivityActor;
  @EnumField(ACTIVITY_RECORD_TYPES) record_type!: ActivityRecordType;
  @TextField({ description: 'Id of the record changed.' }) record_id!: string;
  @TextField({ nullable: true, description: "The record's name at the time (or e-mail)." })
  record_name!: string | null;
  @TextField({
    description:
      'What happened: created, updated, deleted, restored, scanned, checked_out, checked_in, ' +
      'overdue, offboarded, invited, invitation_resent, invitation_cancelled, joined, ' +
      'role_changed, removed, revoked, secret_rotated, disabled, enabled.',
  })
  action!: string;
  @TextField({
    nullable: true,
    description:
      'Another record the change concerns (the person of a check-out), so it shows in that ' +
      "record's history too; or null.",
  })
  related_id!: string | null;
  @TextField({
    nullable: true,
    description: "The related record's name at the time, or null.",
  })
  related_name!: string | null;
  @ListField(ActivityChange, { description: 'The fields changed; empty when none apply.' })
  changes!: ActivityChange[];
}

@ContractSchema({
  name: 'ActivityPage',
  description: 'Entries newest first; `next` is the `before` of the following page, or null.',
})
export class ActivityPage {
  @ListField(ActivityEntry) data!: ActivityEntry[];
  @TextField({ nullable: true, description: 'Pass as `before` for older entries; null: none.' })
  next!: string | null;
}

/** An entry as a writer gives it; the log adds the id and the time. */
export interface ActivityRecord {
  source: ActivitySource;
  actor: ActivityActor;
  recordType: ActivityRecordType;
  recordId: string;
  recordName: string | null;
  action: string;
  relatedId?: string | null;
  relatedName?: string | null;
  changes?: ActivityChange[];
}

/** The actor and source of the admin CLI's and the service's own changes. */
export const SYSTEM_ACTOR: ActivityActor = { type: 'system', id: null, name: null };

/**
 * The source and actor of a change made through the register's API queue: a console member
 * (key id `console:<member id>`, named by e-mail) or an API key (named by its name).
 */
export function callerActivity(caller: CallerContext): Pick<ActivityRecord, 'source' | 'actor'> {
  const name = caller.actorName ?? null;
  if (caller.keyId.startsWith(CONSOLE_KEY_PREFIX)) {
    const id = caller.keyId.slice(CONSOLE_KEY_PREFIX.length);
    return { source: 'console', actor: { type: 'member', id, name } };
  }
  return { source: 'api', actor: { type: 'key', id: caller.keyId, name } };
}
