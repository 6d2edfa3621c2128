import type { CreatedConsoleKey, KeyScope } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../shared/notices';
import { PasswordCheck } from '../shared/password-check';
import { useCreateKey } from './keys.queries';

export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedConsoleKey) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('read');
  const creating = useCreateKey();

  function submit(event?: FormEvent) {
    event?.preventDefault();
    creating.mutate(
      { name: name.trim(), scope },
      {
        onSuccess: (created) => {
          setName('');
          setScope('read');
          onCreated(created);
        },
      },
    );
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input
          id="key-name"
          required
          maxLength={200}
          aria-describedby="key-name-hint"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <p id="key-name-hint" className="hint">
          Where the key is used, e.g. “Inventory sync”. 1 to 200 characters.
        </p>
      </div>
      <fieldset className="field">
        <legend>Scope</legend>
        <label className="inline">
          <input
            type="radio"
            name="scope"
            value="read"
            checked={scope === 'read'}
            onChange={() => setScope('read')}
          />
          Read: fetch and list only
        </label>
        <label className="inline">
          <input
            type="radio"
            name="scope"
            value="write"
            checked={scope === 'write'}
            onChange={() => setScope('write')}
          />
          Write: read, create, change and delete
        </label>
      </fieldset>
      <ErrorNotice error={creating.error} />
      <PasswordCheck error={creating.error} retry={() => submit()} />
      <button type="submit" className="button-primary" disabled={creating.isPending}>
        {creating.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
