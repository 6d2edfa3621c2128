import { acceptInvitation } from '../api/session.api';
import { RedeemToken } from './redeem-token';

export function AcceptInvitationPage() {
  return (
    <RedeemToken
      title="Accepting the invitation"
      working="Accepting the invitation and signing you in…"
      missing="This address has no invitation token. Open the link from the invitation e-mail again."
      redeem={acceptInvitation}
    />
  );
}
