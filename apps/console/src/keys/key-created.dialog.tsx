import type { CreatedConsoleKey } from '@custodian/console-client';
import { Dialog } from '../shared/dialog';
import { SecretField } from '../shared/secret-field';

/** The raw key, this once: only its hash is kept, so nobody can show it again. */
export function KeyCreatedDialog({
  created,
  onClose,
}: {
  created: CreatedConsoleKey | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={created !== null} title="Your new API key" onClose={onClose}>
      {created && (
        <>
          <p className="notice notice-warning">
            Copy this key now and keep it somewhere safe: it will not be shown again. If it is lost,
            create a new key and revoke this one.
          </p>
          <SecretField
            label={`Key “${created.name ?? created.prefix}” (${created.scope})`}
            value={created.key}
          />
          <div className="actions">
            <button type="button" className="button-primary" onClick={onClose}>
              I have copied the key
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
