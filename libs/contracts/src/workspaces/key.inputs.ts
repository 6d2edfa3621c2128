import { IsIn, IsOptional, IsString } from 'class-validator';
import { EnumField, TextField } from '../fields/field.decorators';
import { TextLength } from '../fields/text-length';
import { KEY_SCOPES, type KeyScope } from './key.constants';
import { KEY_SCOPE } from './workspace.docs';
import { WorkspaceRefInput } from './workspace.inputs';

export class CreateKeyInput extends WorkspaceRefInput {
  @IsIn(KEY_SCOPES, { message: `scope must be one of ${KEY_SCOPES.join(', ')}` })
  scope!: KeyScope;
  @IsOptional() @IsString() @TextLength(1, 200) name?: string;
}

export class RevokeKeyInput {
  @IsString() @TextLength(1, 64) id!: string;
}

export class CreateConsoleKeyBody {
  @TextField({ min: 1, max: 200, notBlank: true, description: 'What the key is for.' })
  name!: string;

  @EnumField(KEY_SCOPES, KEY_SCOPE) scope!: KeyScope;
}
