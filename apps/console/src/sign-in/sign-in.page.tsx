import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { requestSignInLink, signInWithPassword } from '../api/session.api';
import { ErrorNotice, Notice } from '../shared/notices';
import { landingPath, safeNextPath } from '../shared/permissions';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';

export function SignInPage() {
  usePageTitle('Sign in');
  const { session, replace } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const next = safeNextPath(search.get('next'));

  const [linkEmail, setLinkEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sending = useMutation({ mutationFn: (address: string) => requestSignInLink(address) });

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signingIn = useMutation({
    mutationFn: ({ address, secret }: { address: string; secret: string }) =>
      signInWithPassword(address, secret),
  });

  if (session.signed_in) return <Navigate to={landingPath(session, next)} replace />;

  function sendLink(event: FormEvent) {
    event.preventDefault();
    const address = linkEmail.trim();
    sending.mutate(address, { onSuccess: () => setSentTo(address) });
  }

  function signIn(event: FormEvent) {
    event.preventDefault();
    signingIn.mutate(
      { address: email.trim(), secret: password },
      {
        onSuccess: (signedIn) => {
          replace(signedIn);
          void navigate(landingPath(signedIn, next), { replace: true });
        },
      },
    );
  }

  return (
    <div className="page page-narrow">
      <h1>Sign in to Custodian</h1>

      <section className="card" aria-labelledby="link-heading">
        <h2 id="link-heading">With a link by e-mail</h2>
        {sentTo ? (
          <Notice tone="success">
            If {sentTo} is a member, a link is on its way; it works for 15 minutes.{' '}
            <button type="button" className="button-link" onClick={() => setSentTo(null)}>
              Use another address
            </button>
          </Notice>
        ) : (
          <form onSubmit={sendLink}>
            <div className="field">
              <label htmlFor="link-email">E-mail</label>
              <input
                id="link-email"
                type="email"
                autoComplete="email"
                required
                value={linkEmail}
                onChange={(event) => setLinkEmail(event.target.value)}
              />
            </div>
            <ErrorNotice error={sending.error} />
            <button type="submit" className="button-primary" disabled={sending.isPending}>
              {sending.isPending ? 'Sending…' : 'Email me a sign-in link'}
            </button>
          </form>
        )}
      </section>

      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">With a password</h2>
        <form onSubmit={signIn}>
          <div className="field">
            <label htmlFor="password-email">E-mail</label>
            <input
              id="password-email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input
              id="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <ErrorNotice error={signingIn.error} />
          <button type="submit" className="button-primary" disabled={signingIn.isPending}>
            {signingIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="hint">No password yet? Sign in with a link, then set one under Account.</p>
      </section>
    </div>
  );
}
