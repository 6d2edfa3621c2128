import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, IdField, TextField, TimestampField } from '../fields/field.decorators';
import { KEY_SCOPES, type KeyScope } from './key.constants';
import { KEY_SCOPE } from './workspace.docs';

export interface RevokedKeyView {
  id: string;
  revoked_at: string;
}

export interface CreatedKeyView {
  id: string;
  key: string;
  prefix: string;
  scope: KeyScope;
  name: string | null;
  workspace_id: string;
  created_at: string;
}

export interface KeyView {
  id: string;
  prefix: string;
  scope: KeyScope;
  name: string | null;
  workspace_id: string;
  created_at: string;
  revoked_at: string | null;
}

@ContractSchema({
  name: 'ConsoleKey',
  description: 'An API key of the workspace, without its value.',
})
export class ConsoleKey {
  @IdField('key', 'Id of the key.') id!: string;
  @TextField({ nullable: true, description: 'Name given at creation.' }) name!: string | null;
  @TextField({ description: 'The first characters of the key, to tell keys apart.' })
  prefix!: string;
  @EnumField(KEY_SCOPES, KEY_SCOPE) scope!: KeyScope;
  @TimestampField() created_at!: string;

  @TextField({
    nullable: true,
    description: 'E-mail of the member who created it; null when the admin CLI did.',
  })
  created_by!: string | null;

  @TimestampField({
    nullable: true,
    description: 'When it was last used (to within a few seconds), or null.',
  })
  last_used_at!: string | null;

  @TimestampField({ nullable: true, description: 'When it was revoked, or null.' })
  revoked_at!: string | null;
}

@ContractSchema({
  name: 'CreatedConsoleKey',
  description: 'A new key, with its value: shown this once and never again.',
})
export class CreatedConsoleKey extends ConsoleKey {
  @TextField({ description: 'The API key itself.' }) key!: string;
}
