import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { setPassword } from '../api/session.api';
import { ErrorNotice, Notice } from '../shared/notices';
import { useSession, useSignOut } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { CalendarFeedCard } from './calendar-feed-card';
import { SessionsCard } from './sessions-card';

const MIN_LENGTH = 12;
const MAX_LENGTH = 256;

/** Why the new password cannot be sent, or null when it can. */
function passwordProblem(password: string, repeat: string): string | null {
  if ([...password].length < MIN_LENGTH || [...password].length > MAX_LENGTH) {
    return `New password must be ${MIN_LENGTH} to ${MAX_LENGTH} characters.`;
  }
  return password === repeat ? null : 'Repeat new password does not match the new password.';
}

export function AccountPage() {
  usePageTitle('Account');
  const { session } = useSession();
  const [current, setCurrent] = useState('');
  const [password, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const saving = useMutation({
    mutationFn: ({ next, now }: { next: string; now: string }) => setPassword(next, now),
  });
  const leaving = useSignOut();

  function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const found = passwordProblem(password, repeat);
    setProblem(found);
    if (found) return;
    saving.mutate(
      { next: password, now: current },
      {
        onSuccess: () => {
          setSaved(true);
          setCurrent('');
          setNewPassword('');
          setRepeat('');
        },
      },
    );
  }

  return (
    <div className="page page-narrow">
      <h1>Account</h1>
      <p>Signed in as {session.email}.</p>

      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <p className="hint">
          A password lets you sign in without waiting for an e-mail. Links keep working. Saving one
          signs out your other sessions and e-mails you.
        </p>
        <form onSubmit={save}>
          <div className="field">
            <label htmlFor="current-password">Current password</label>
            <input
              id="current-password"
              type="password"
              autoComplete="current-password"
              aria-describedby="current-password-hint"
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
            <p id="current-password-hint" className="hint">
              Leave blank if you have not set a password yet.
            </p>
          </div>
          <div className="field">
            <label htmlFor="new-password">New password</label>
            <input
              id="new-password"
              type="password"
              autoComplete="new-password"
              required
              aria-describedby="new-password-hint"
              value={password}
              onChange={(event) => setNewPassword(event.target.value)}
            />
            <p id="new-password-hint" className="hint">
              {MIN_LENGTH} to {MAX_LENGTH} characters.
            </p>
          </div>
          <div className="field">
            <label htmlFor="repeat-password">Repeat new password</label>
            <input
              id="repeat-password"
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(event) => setRepeat(event.target.value)}
            />
          </div>
          {problem && (
            <p className="notice notice-error" role="alert">
              {problem}
            </p>
          )}
          <ErrorNotice error={saving.error} />
          {saved && <Notice tone="success">Password saved.</Notice>}
          <button type="submit" className="button-primary" disabled={saving.isPending}>
            {saving.isPending ? 'Saving…' : 'Save password'}
          </button>
        </form>
      </section>

      <SessionsCard />

      {/* The feed is the workspace's: none before one is picked, and a URL just made is not
          shown again after switching to another (the card starts afresh per workspace). */}
      {session.workspace && (
        <CalendarFeedCard key={session.workspace.id} workspaceName={session.workspace.name} />
      )}

      <section className="card" aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <p className="hint">Ends this session in this browser.</p>
        <ErrorNotice error={leaving.error} />
        <button type="button" onClick={() => leaving.mutate()} disabled={leaving.isPending}>
          Sign out
        </button>
      </section>
    </div>
  );
}
