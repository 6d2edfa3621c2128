import { type FormEvent, useId, useState } from 'react';
import { ApiFailure } from '../api/failure';
import { confirmWithPassword } from '../api/client';

/** The API's refusal of a secret's route for a sign-in older than 15 minutes. */
export function needsPassword(error: unknown): boolean {
  return (
    error instanceof ApiFailure &&
    error.status === 403 &&
    error.message.startsWith('Confirm your password')
  );
}

/**
 * Shown under an action the API refused for an old sign-in (creating a key, showing or
 * rotating a signing secret): the password once more, then the same action again, which sends
 * it (x-confirm-password). Renders nothing for any other outcome.
 */
export function PasswordCheck({ error, retry }: { error: unknown; retry: () => void }) {
  const id = useId();
  const [password, setPassword] = useState('');
  if (!needsPassword(error)) return null;

  function confirm(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    confirmWithPassword(password);
    setPassword('');
    retry();
  }

  return (
    <div className="field" role="group" aria-label="Confirm your password">
      <label htmlFor={id}>Your password</label>
      <input
        id={id}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') confirm(event);
        }}
      />
      <button type="button" onClick={confirm} disabled={password === ''}>
        Confirm and continue
      </button>
    </div>
  );
}
