import { EmailField, TextField } from '../fields/field.decorators';

export class SignInLinkBody {
  @EmailField({ max: 320, description: 'The e-mail address of a member.' }) email!: string;
}

export class SignInTokenBody {
  @TextField({ min: 1, max: 128, description: 'The token of the e-mailed link.' })
  token!: string;
}

export class PasswordSignInBody {
  @EmailField({ max: 320 }) email!: string;
  @TextField({ min: 1, max: 256 }) password!: string;
}

export class PickWorkspaceBody {
  @TextField({ min: 1, max: 64, description: "One of the session's memberships." })
  workspace_id!: string;
}

export class SetPasswordBody {
  @TextField({ min: 12, max: 256, description: 'The new password: 12 to 256 characters.' })
  password!: string;

  @TextField({
    optional: true,
    max: 256,
    description: 'The password now set; needed when one is set.',
  })
  current_password?: string;
}
