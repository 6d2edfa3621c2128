import type { MemberRole } from '../members/member.constants';

/** Whether a link was e-mailed; the gateway answers the same either way. */
export interface SignInLinkView {
  sent: boolean;
}

export interface PasswordSetView {
  updated_at: string;
}

/** Who signed in: the e-mail (lower case) and its active memberships, oldest joined first. */
export interface SignInIdentity {
  email: string;
  memberships: Array<{
    workspace_id: string;
    member_id: string;
    role: MemberRole;
    name: string | null;
  }>;
}
