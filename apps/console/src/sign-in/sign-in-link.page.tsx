import { redeemSignInToken } from '../api/session.api';
import { RedeemToken } from './redeem-token';

export function SignInLinkPage() {
  return (
    <RedeemToken
      title="Signing in"
      working="Signing you in…"
      missing="This address has no sign-in token. Open the link from the e-mail again, or ask for a new one."
      redeem={redeemSignInToken}
    />
  );
}
